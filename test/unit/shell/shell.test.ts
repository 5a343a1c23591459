import { describe, expect, it, vi } from 'vitest'
import { OPERATION_NAMES } from '../../../src/shared/contract/operations'

// A stand-in for the electron module: the shell's modules are loaded against it without an Electron binary.
const handled = new Map<string, (event: unknown, input: unknown) => Promise<unknown>>()
vi.mock('electron', () => ({
  ipcMain: { handle: (channel: string, fn: (event: unknown, input: unknown) => Promise<unknown>) => handled.set(channel, fn) }
}))

const { registerIpc, channelFor } = await import('../../../src/main/shell/ipc')
const { secureWindowOptions, secureWebPreferences } = await import('../../../src/main/shell/security')
const { menuTemplate } = await import('../../../src/main/shell/menu')
const electron = await import('electron')

describe('desktop shell', () => {
  it('registers one IPC handler for every operation of the contract', () => {
    const channels = registerIpc(electron.ipcMain as never, () => undefined, () => true)
    expect(channels.sort()).toEqual(OPERATION_NAMES.map(channelFor).sort())
    expect([...handled.keys()].sort()).toEqual(channels.sort())
  })

  it('refuses IPC from an untrusted sender and from a window without a project', async () => {
    handled.clear()
    registerIpc(electron.ipcMain as never, () => undefined, (e) => (e as unknown as { trusted: boolean }).trusted)
    const fn = handled.get(channelFor('project.info'))!
    expect(await fn({ trusted: false, sender: { id: 1 } }, {})).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    expect(await fn({ trusted: true, sender: { id: 1 } }, {})).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })

  it('makes insecure window options impossible', () => {
    const opts = secureWindowOptions('/preload.cjs', { title: 't', webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } } as never)
    expect(opts.webPreferences).toEqual(secureWebPreferences('/preload.cjs'))
    expect(opts.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false })
    expect(opts.title).toBe('t')
  })

  it('offers new, open and recent projects in the menu', () => {
    const calls: string[] = []
    const template = menuTemplate({ newProject: () => calls.push('new'), openProject: () => calls.push('open'), openRecent: (p) => calls.push(p), recent: ['/x.assay'] }, false)
    const file = template.find((m) => m.label === 'File')!
    const items = file.submenu as Array<{ label?: string; click?: () => void; submenu?: Array<{ label?: string; click?: () => void }> }>
    items.find((i) => i.label === 'New Project…')!.click!()
    items.find((i) => i.label === 'Open Project…')!.click!()
    items.find((i) => i.label === 'Open Recent')!.submenu![0]!.click!()
    expect(calls).toEqual(['new', 'open', '/x.assay'])
  })
})
