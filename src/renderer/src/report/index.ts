export { ReportScreen } from './ReportScreen'
