import type { ConsoleMessage, Page, Response } from 'playwright-core'

/** What a page reported going wrong while it was watched, each labelled with `where` it was at the time. */
export interface PageProblems {
  found: string[]
  stop(): void
}

/**
 * Starts collecting failed requests (HTTP ≥ 400), page errors, and console errors and warnings. `where` names the
 * place each was seen ('' for none).
 */
export function watchPageProblems(page: Page, where: () => string = () => ''): PageProblems {
  const found: string[] = []
  const at = () => (where() ? `${where()}: ` : '')
  const onConsole = (m: ConsoleMessage) => {
    if (m.type() === 'error' || m.type() === 'warning') found.push(`${at()}console ${m.type()}: ${m.text()}`)
  }
  const onError = (e: Error) => found.push(`${at()}page error: ${e.message}`)
  const onResponse = (r: Response) => {
    if (r.status() >= 400) found.push(`${at()}HTTP ${r.status()} ${new URL(r.url()).pathname}`)
  }
  page.on('console', onConsole)
  page.on('pageerror', onError)
  page.on('response', onResponse)
  return {
    found,
    stop() {
      page.off('console', onConsole)
      page.off('pageerror', onError)
      page.off('response', onResponse)
    }
  }
}
