import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron'
import { OPERATION_NAMES } from '../../shared/contract/operations'
import type { Envelope } from '../../shared/contract/client'
import { dispatch } from '../api/dispatch'
import type { ApiContext } from '../api/context'

export const channelFor = (operation: string) => `assay:op:${operation}`
export const EVENT_CHANNEL = 'assay:event'

/**
 * One ipcMain handler per contract operation, all through the same dispatcher as the HTTP bridge.
 * A sender that is not one of our windows showing our own page gets a typed refusal.
 */
export function registerIpc(
  ipcMain: IpcMain,
  contextFor: (sender: WebContents) => ApiContext | undefined,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean
): string[] {
  const channels: string[] = []
  for (const name of OPERATION_NAMES) {
    const channel = channelFor(name)
    ipcMain.handle(channel, async (event, input: unknown): Promise<Envelope> => {
      if (!isTrustedSender(event)) return { ok: false, error: { code: 'forbidden', message: 'IPC from an untrusted frame' } }
      const ctx = contextFor(event.sender)
      if (!ctx) return { ok: false, error: { code: 'not_found', message: 'No project is open in this window' } }
      return dispatch(ctx, name, input)
    })
    channels.push(channel)
  }
  return channels
}
