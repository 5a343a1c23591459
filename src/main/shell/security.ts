import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron'

/**
 * The only web preferences a window may have. Callers pass the preload path; everything that would weaken
 * isolation is fixed here and cannot be overridden, because the spread comes first.
 */
export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    spellcheck: false,
    safeDialogs: true,
    navigateOnDragDrop: false
  }
}

export function secureWindowOptions(preload: string, extra: Omit<BrowserWindowConstructorOptions, 'webPreferences'> = {}): BrowserWindowConstructorOptions {
  const { ...rest } = extra as BrowserWindowConstructorOptions
  delete (rest as { webPreferences?: unknown }).webPreferences
  return { width: 1360, height: 880, minWidth: 900, minHeight: 600, show: false, backgroundColor: '#f7f7f4', ...rest, webPreferences: secureWebPreferences(preload) }
}
