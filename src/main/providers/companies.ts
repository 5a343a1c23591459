import type { JudgeConfig } from './types'

/**
 * The organisation that trained a model. Panel rules use it to keep a generator's own company off its judging
 * panel (the match rule counts only judges from other companies), so it is about who made the weights, not who
 * serves them: Llama on vLLM is meta, Claude through a router is anthropic.
 */
export type Company = string

export const UNKNOWN_COMPANY = 'unknown'

export interface CompanyRule {
  /** A regular expression, or a case-insensitive substring, tested against the lowercased model name. */
  pattern: RegExp | string
  company: Company
}

// Order matters where names mix makers: a DeepSeek distillation into Llama or Qwen is DeepSeek's model.
const MODEL_RULES: readonly CompanyRule[] = [
  { pattern: /(^|[/:])gpt-oss/, company: 'openai' },
  { pattern: /(^|[/:.])(gpt|chatgpt|davinci|babbage|text-embedding|codex)|(^|[/:])o[1-9](-|$)/, company: 'openai' },
  { pattern: /claude/, company: 'anthropic' },
  { pattern: /gemini|gemma|palm|bison|learnlm/, company: 'google' },
  { pattern: /grok/, company: 'xai' },
  { pattern: /deepseek/, company: 'deepseek' },
  { pattern: /qwen|qwq/, company: 'alibaba' },
  { pattern: /llama/, company: 'meta' },
  { pattern: /mistral|mixtral|codestral|ministral|magistral|pixtral|devstral|voxtral/, company: 'mistral' },
  { pattern: /(^|[/-])(chat)?glm|zhipu|codegeex/, company: 'zhipu' },
  { pattern: /kimi|moonshot/, company: 'moonshot' },
  { pattern: /minimax|abab/, company: 'minimax' },
  { pattern: /(^|[/])(command-|c4ai|aya-)/, company: 'cohere' },
  { pattern: /(^|[/-])phi-?\d/, company: 'microsoft' },
  { pattern: /(^|[/.])(nova-|titan-)/, company: 'amazon' },
  { pattern: /nemotron/, company: 'nvidia' },
  { pattern: /jamba/, company: 'ai21' },
  { pattern: /(^|[/])yi-/, company: '01ai' },
  { pattern: /ernie/, company: 'baidu' },
  { pattern: /hunyuan/, company: 'tencent' },
  { pattern: /doubao|(^|[/])seed-/, company: 'bytedance' },
  { pattern: /olmo|tulu/, company: 'ai2' },
  { pattern: /granite/, company: 'ibm' }
]

// A first-party endpoint says who made the model when its name does not.
const HOST_RULES: readonly CompanyRule[] = [
  { pattern: /(^|\.)api\.openai\.com$/, company: 'openai' },
  { pattern: /(^|\.)api\.anthropic\.com$/, company: 'anthropic' },
  { pattern: /generativelanguage\.googleapis\.com$/, company: 'google' },
  { pattern: /(^|\.)x\.ai$/, company: 'xai' },
  { pattern: /(^|\.)deepseek\.com$/, company: 'deepseek' },
  { pattern: /(^|\.)mistral\.ai$/, company: 'mistral' },
  { pattern: /dashscope/, company: 'alibaba' },
  { pattern: /(^|\.)(bigmodel\.cn|z\.ai)$/, company: 'zhipu' },
  { pattern: /moonshot/, company: 'moonshot' }
]

function matches(rule: CompanyRule, subject: string): boolean {
  return typeof rule.pattern === 'string' ? subject.includes(rule.pattern.toLowerCase()) : rule.pattern.test(subject)
}

function hostOf(url: string | undefined): string | null {
  if (!url) return null
  try {
    return new URL(url).hostname.toLowerCase()
  } catch {
    return null
  }
}

/**
 * The company behind a judge or generator: `config.company` when set, then `rules` (from the project's config),
 * then the model name, then a first-party base URL, then the provider itself; `unknown` for an unrecognised model on
 * a generic server.
 */
export function companyOf(config: Pick<JudgeConfig, 'provider' | 'model' | 'company' | 'baseUrl'>, rules: readonly CompanyRule[] = []): Company {
  const explicit = config.company?.trim().toLowerCase()
  if (explicit) return explicit
  const model = config.model.trim().toLowerCase()
  for (const rule of [...rules, ...MODEL_RULES]) {
    if (matches(rule, model)) return rule.company.toLowerCase()
  }
  const host = hostOf(config.baseUrl)
  if (host) {
    for (const rule of HOST_RULES) if (matches(rule, host)) return rule.company
  }
  if (config.provider === 'openai-compatible') return UNKNOWN_COMPANY
  return config.provider
}

/** Two models are of one company only when both are known: an unknown company never excludes anyone. */
export function sameCompany(a: Company, b: Company): boolean {
  return a !== UNKNOWN_COMPANY && a === b
}
