// The recalibration's refusals come from main in the command line's words (its flags); the report screen's form says
// the same in the names of its own controls, so a curator is never told to type a flag the screen does not have.

/** Whole phrases first (their advice differs on the screen), then any flag left, by the control that sets it. */
const PHRASES: ReadonlyArray<readonly [RegExp, string]> = [
  [/name one with --field/g, 'choose one in “Score field”'],
  [/give --positive \(a category, or >=k\)/g, 'say in “Counts as yes” which answer is the event (a category, or >=k)'],
  [/give --positive to fit the probability of a category/g, 'say in “Counts as yes” which category to fit the probability of'],
  [/run the judge with --both-orders/g, 'start a run with “Both orders” on the Judges & runs screen'],
  [/choose --fit-split dev \(or none\)/g, 'the form fits on dev only'],
  [/so --source must be a judge run/g, 'so the judge must be one of its runs']
]

const CONTROLS: Readonly<Record<string, string>> = {
  '--field': '“Score field”',
  '--target': '“Human label”',
  '--positive': '“Counts as yes”',
  '--source': '“Judge”',
  '--method': '“Method”',
  '--criterion': 'the criterion',
  '--fit-split': 'the fit split',
  '--eval-split': 'the evaluation split'
}

export function inFormWords(message: string): string {
  let text = message
  for (const [pattern, words] of PHRASES) text = text.replace(pattern, words)
  return text.replace(/--[a-z][a-z-]*/g, (flag) => CONTROLS[flag] ?? flag.slice(2).replace(/-/g, ' '))
}
