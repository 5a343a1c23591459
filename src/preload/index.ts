import { contextBridge, ipcRenderer } from 'electron'
import { OPERATION_NAMES } from '../shared/contract/operations'

// The bridge exposes exactly one transport: invoke a contract operation, or listen to pushed events.
// Operation names are checked here too, so the renderer cannot reach any other channel.
const allowed = new Set<string>(OPERATION_NAMES)

contextBridge.exposeInMainWorld('assayTransport', {
  invoke: (operation: string, input: unknown) => {
    if (!allowed.has(operation)) return Promise.resolve({ ok: false, error: { code: 'unknown_operation', message: `Unknown operation "${operation}"` } })
    return ipcRenderer.invoke(`assay:op:${operation}`, input)
  },
  subscribe: (listener: (event: string, payload: unknown) => void) => {
    const wrapped = (_e: unknown, event: string, payload: unknown) => listener(event, payload)
    ipcRenderer.on('assay:event', wrapped)
    return () => ipcRenderer.removeListener('assay:event', wrapped)
  }
})
