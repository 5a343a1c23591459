import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  APP_ENTRY,
  appRequestFile,
  devServerUrl,
  isAppEntry,
  isAppUrl,
  isTrustedIpcSender,
  navigationDecision,
  plaintextKeysOptIn,
  windowOpenDecision
} from '../../../src/main/shell/policy'
import { keyStorageDecision } from '../../../src/main/secrets/plaintext-policy'
import { repoRoot } from '../../support/tmp'

const DEV = 'http://localhost:5173'
const root = join('/opt', 'assay', 'out', 'renderer')

describe('desktop shell policy', () => {
  it('does not import electron, so every rule runs without a binary', () => {
    expect(readFileSync(join(repoRoot, 'src/main/shell/policy.ts'), 'utf8')).not.toMatch(/from ['"]electron['"]/)
  })

  it('ignores ELECTRON_RENDERER_URL in a packaged build, and anything but a loopback http URL', () => {
    expect(devServerUrl({ ELECTRON_RENDERER_URL: 'http://localhost:5173/' }, false)).toBe(DEV)
    expect(devServerUrl({ ELECTRON_RENDERER_URL: 'http://localhost:5173/' }, true)).toBeUndefined()
    expect(devServerUrl({ ELECTRON_RENDERER_URL: 'https://evil.example/' }, false)).toBeUndefined()
    expect(devServerUrl({ ELECTRON_RENDERER_URL: 'http://localhost.evil.example:5173/' }, false)).toBeUndefined()
    expect(devServerUrl({}, false)).toBeUndefined()
  })

  it('recognises the app by exact scheme, host and origin, never by prefix', () => {
    expect(isAppUrl(APP_ENTRY, undefined)).toBe(true)
    expect(isAppUrl('app://assay/assets/index-abc.js', undefined)).toBe(true)
    expect(isAppUrl('file:///opt/assay/out/renderer/index.html', undefined)).toBe(false)
    expect(isAppUrl('file:///etc/passwd', undefined)).toBe(false)
    expect(isAppUrl('app://assay.evil/index.html', undefined)).toBe(false)
    expect(isAppUrl('app://user@assay/index.html', undefined)).toBe(false)
    expect(isAppUrl('app://other/index.html', undefined)).toBe(false)
    expect(isAppUrl('http://localhost:5173/x', DEV)).toBe(true)
    expect(isAppUrl('http://localhost:5173.evil.example/x', DEV)).toBe(false)
    expect(isAppUrl('http://localhost:51730/x', DEV)).toBe(false)
    expect(isAppUrl('http://localhost:5173/x', undefined)).toBe(false)
    expect(isAppUrl('not a url', undefined)).toBe(false)
  })

  it('lets the main frame reload only the app’s own page', () => {
    expect(navigationDecision(APP_ENTRY, { isMainFrame: true, devOrigin: undefined })).toEqual({ action: 'allow' })
    expect(navigationDecision('app://assay/', { isMainFrame: true, devOrigin: undefined })).toEqual({ action: 'allow' })
    expect(navigationDecision(APP_ENTRY, { isMainFrame: false, devOrigin: undefined })).toEqual({ action: 'deny' })
  })

  it('never lets a Markdown link navigate the window: relative, absolute, file and script links are refused', () => {
    const main = { isMainFrame: true, devOrigin: undefined }
    // A relative link in content resolves under the app's origin: still not the app's page.
    expect(navigationDecision(new URL('notes/other.md', APP_ENTRY).href, main)).toEqual({ action: 'deny' })
    expect(navigationDecision(new URL('/etc/passwd', APP_ENTRY).href, main)).toEqual({ action: 'deny' })
    expect(navigationDecision('file:///home/u/secret.txt', main)).toEqual({ action: 'deny' })
    expect(navigationDecision('javascript:alert(1)', main)).toEqual({ action: 'deny' })
    expect(navigationDecision('data:text/html,<script>1</script>', main)).toEqual({ action: 'deny' })
    // A web link opens in the system browser, never in the app window.
    expect(navigationDecision('https://arxiv.org/abs/1234', main)).toEqual({ action: 'deny-open-external', url: 'https://arxiv.org/abs/1234' })
  })

  it('applies the same rule to redirects and frame navigations', () => {
    expect(navigationDecision('https://evil.example/', { isMainFrame: false, devOrigin: undefined }).action).not.toBe('allow')
    expect(navigationDecision('app://assay/assets/x.js', { isMainFrame: false, devOrigin: undefined })).toEqual({ action: 'deny' })
  })

  it('opens no new windows; web links go to the system browser', () => {
    expect(windowOpenDecision('https://example.org/', undefined)).toEqual({ action: 'deny-open-external', url: 'https://example.org/' })
    expect(windowOpenDecision(APP_ENTRY, undefined)).toEqual({ action: 'deny' })
    expect(windowOpenDecision('file:///etc/passwd', undefined)).toEqual({ action: 'deny' })
  })

  it('accepts IPC only from the main frame of a known window showing the app’s page', () => {
    const ok = { knownWindow: true, isMainFrame: true, frameUrl: APP_ENTRY }
    expect(isTrustedIpcSender(ok, undefined)).toBe(true)
    expect(isTrustedIpcSender({ ...ok, isMainFrame: false }, undefined)).toBe(false)
    expect(isTrustedIpcSender({ ...ok, knownWindow: false }, undefined)).toBe(false)
    expect(isTrustedIpcSender({ ...ok, frameUrl: 'file:///opt/assay/out/renderer/index.html' }, undefined)).toBe(false)
    expect(isTrustedIpcSender({ ...ok, frameUrl: 'app://assay/notes.md' }, undefined)).toBe(false)
    expect(isTrustedIpcSender({ ...ok, frameUrl: undefined }, undefined)).toBe(false)
    expect(isTrustedIpcSender({ ...ok, frameUrl: `${DEV}/` }, DEV)).toBe(true)
  })

  it('serves app:// requests only from inside the renderer folder', () => {
    expect(appRequestFile('app://assay/', root)).toBe(join(root, 'index.html'))
    expect(appRequestFile('app://assay/assets/a.js', root)).toBe(join(root, 'assets', 'a.js'))
    // Dot segments, even percent-encoded, are resolved by the URL parser before the path is used: still inside.
    expect(appRequestFile('app://assay/assets/%2e%2e/%2e%2e/secret', root)).toBe(join(root, 'secret'))
    expect(appRequestFile('app://assay/..%2f..%2fsecret', root)).toBeNull()
    expect(appRequestFile('app://assay/%E0%A4%A', root)).toBeNull()
    expect(appRequestFile('app://assay/a%00.js', root)).toBeNull()
    expect(appRequestFile('app://other/index.html', root)).toBeNull()
    expect(appRequestFile('file:///etc/passwd', root)).toBeNull()
  })

  it('refuses to store keys in plain text unless the user opted in', () => {
    expect(keyStorageDecision({ encryptionAvailable: true, backend: 'gnome_libsecret', optedIn: false })).toEqual({ store: true, plainText: false })
    expect(keyStorageDecision({ encryptionAvailable: true, backend: undefined, optedIn: false })).toEqual({ store: true, plainText: false })
    expect(keyStorageDecision({ encryptionAvailable: true, backend: 'basic_text', optedIn: false })).toEqual({ store: false, plainText: true })
    expect(keyStorageDecision({ encryptionAvailable: true, backend: 'basic_text', optedIn: true })).toEqual({ store: true, plainText: true })
    expect(keyStorageDecision({ encryptionAvailable: false, backend: undefined, optedIn: true })).toEqual({ store: false, plainText: true })
    expect(plaintextKeysOptIn(['electron', '.', '--allow-plaintext-keys'], {})).toBe(true)
    expect(plaintextKeysOptIn(['electron', '.'], { ASSAY_ALLOW_PLAINTEXT_KEYS: '1' })).toBe(true)
    expect(plaintextKeysOptIn(['electron', '.'], {})).toBe(false)
  })
})

describe('packaging', () => {
  const config = readFileSync(join(repoRoot, 'electron-builder.yml'), 'utf8')
  it('sets the Electron fuses that close Node entry points and pin the app to its archive', () => {
    for (const line of [
      'runAsNode: false',
      'enableNodeOptionsEnvironmentVariable: false',
      'enableNodeCliInspectArguments: false',
      'enableCookieEncryption: true',
      'onlyLoadAppFromAsar: true',
      'enableEmbeddedAsarIntegrityValidation: true'
    ]) {
      expect(config).toMatch(new RegExp(`^\\s+${line}$`, 'm'))
    }
  })
})

describe('app entry', () => {
  it('is the one page', () => {
    expect(isAppEntry('app://assay/index.html?x=1', undefined)).toBe(true)
    expect(isAppEntry('app://assay/other.html', undefined)).toBe(false)
  })
})
