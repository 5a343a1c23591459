export { requestHash, canonicalJson, REQUEST_HASH_VERSION, type HashedRequest } from './hash'
export { DEFAULT_PRICES, priceFor, seedDefaultPrices, listPrices, setPrice, costOf, bestPrice, type Price, type PriceMatch } from './prices'
export { createJudge, ensureJudge, draftJudge, getJudge, findJudgeByName, listJudges, judgeConfig, type Judge, type JudgeInput, type JudgeOptions } from './judges'
export { builtInTemplates, resolveTemplate, listTemplates, addUserTemplate, parseTemplateRef, usedValues } from './templates'
export { requestUnits, claimId, VALUE_NAMES, ORDERABLE, SkipItem, type RequestUnit } from './requests'
export { interpretAnswer, type Interpretation } from './interpret'
export { planRun, definitionKey, judgementJsonSchema, type Plan, type PlannedCall, type RunDefinition, type StoredPrompt } from './plan'
export { estimatePlan, estimateTokens, ASSUMED_OUTPUT_TOKENS, CHARS_PER_TOKEN, type Estimate } from './estimate'
export { cachedAnswer, cacheLookup, discardUnansweredRun, runCounts, workOf, RecordWriter, type CallRecord, type RunCounts, type RunStatus, type CallStatus } from '../store/model-calls'
export { DEFAULT_RETRY_POLICY, ProviderGate, gateFor, backoffMs, type RetryPolicy } from './gate'
export { executeCalls, type RunProgress, type ExecuteResult } from './execute'
export { executeBatch, type RunBatchState } from './batch'
export { matchPanel, MATCH_PANEL_RULE, type MatchScore, type PanelResult, type PanelRule } from './panel'
export { matchPanelOfRuns, matchScoresOfRuns, generatorCompany } from './panel-scores'
export {
  defineRun,
  estimateRun,
  prepareRun,
  executeRun,
  parseRunSpec,
  providerFor,
  runRegistry,
  RunRegistry,
  DEFAULT_CONCURRENCY,
  type RunEnvironment,
  type RunResult,
  type PreparedRun,
  type ParsedRunSpec
} from './service'
export { runSummary, getRunSummary, listRunSummaries, callsPage, callDetail } from './views'
export { SCHEMES, nextStep, generatedSet, candidatesOf, readStepAnswer, furtherMovesCloser, SELECTION_SIZE, type Scheme, type StepPlan, type StepOutcome, type ChainSettings } from './chain'
export { executeGeneration, generatedSetId, generatedSetsOf } from './generate'
export { estimateGeneration, selectTasks, tokenBudgetsOf, SCHEME_TEMPLATE, IDEA_SCHEME_TEMPLATE } from './generate-plan'
export { nextIdeaStep, generatedIdeas, readIdeaStepAnswer, IDEA_SELECTION_SIZE } from './idea-chain'
export { generatedIdeasOf, keywordOf, selectKeywordTasks } from './idea-tasks'
export { composedTasksOf, selectPaperTasks } from './task-composition'
export { responsesOf, selectResponseTasks } from './fs-responses'
