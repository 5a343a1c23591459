export { AdjudicationScreen } from './AdjudicationScreen'
export { PacketsPanel } from './PacketsPanel'
