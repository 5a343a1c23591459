import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

/** Debian's Chromium (or ASSAY_CHROMIUM); the browser tests never download a browser of their own. */
export const chromiumPath = process.env.ASSAY_CHROMIUM ?? '/usr/bin/chromium'
export const hasChromium = existsSync(chromiumPath)

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']
  })
}

/** A browser suite's title, which says why it was skipped where there is no Chromium (and only then). */
export function chromiumSuite(title: string): string {
  return hasChromium ? title : `${title} (skipped: no Chromium at ${chromiumPath})`
}
