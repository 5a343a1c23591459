export {
  ANSWER_FORMATS,
  REQUEST_PARTS,
  TEMPLATE_INSTRUMENTS,
  TEMPLATE_KINDS,
  TemplateManifestError,
  parseTemplateManifest,
  parseTemplateManifestJson,
  placeholderSchema,
  templateEntrySchema,
  templateManifestSchema,
  templateRef,
  type AnswerFormat,
  type Placeholder,
  type RequestPart,
  type TemplateEntry,
  type TemplateInstrument,
  type TemplateKind,
  type TemplateManifest
} from './manifest'
export {
  TemplateRenderError,
  placeholdersIn,
  renderPart,
  renderRequest,
  renderTemplate,
  type RenderedRequest,
  type Template,
  type TemplateValues
} from './render'
export { buildTemplateSet, findTemplate, getTemplate, templateProblems, type TemplateSet } from './set'
export {
  GROK_SUFFIX_SEPARATOR,
  GROK_SUFFIX_V1,
  answersWithJsonOnly,
  applyGrokSuffix,
  finishForModel,
  isGrokModel
} from './grok'
export { DerivationError, IDEA_ANSWER_FORMAT, IDEA_DERIVATION_RULE, deriveIdeaTemplates, ideaWords, type DerivedTemplate } from './derive-ideas'
