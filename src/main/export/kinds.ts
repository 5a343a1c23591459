/** What `export` can write; named in the contract so the command line can describe it without loading the exporters. */
export { EXPORT_KINDS, TRAINING_EXPORT_KINDS, type ExportKind, type TrainingExportKind } from '../../shared/contract/export-operations'
