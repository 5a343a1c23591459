export { failed, parsed, type ParseResult } from './result'
export { parseJsonObject, type JsonObject, type JsonParseOptions } from './json'
export {
  parseCorrectnessVerdict,
  parsePointsVerdict,
  parseVerdictLine,
  type CorrectnessVerdict
} from './verdict'
export { parseLetterAnswer } from './letter'
export { parseAnswer } from './answer'
