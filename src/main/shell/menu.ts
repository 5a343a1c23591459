import type { MenuItemConstructorOptions } from 'electron'

export interface MenuActions {
  newProject(): void
  openProject(): void
  openRecent(path: string): void
  recent: string[]
}

/** The application menu as data, so it can be checked without Electron. */
export function menuTemplate(actions: MenuActions, isMac: boolean): MenuItemConstructorOptions[] {
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'New Project…', accelerator: 'CmdOrCtrl+N', click: () => actions.newProject() },
      { label: 'Open Project…', accelerator: 'CmdOrCtrl+O', click: () => actions.openProject() },
      {
        label: 'Open Recent',
        submenu: actions.recent.length
          ? actions.recent.map((p) => ({ label: p, click: () => actions.openRecent(p) }))
          : [{ label: 'No recent projects', enabled: false }]
      },
      { type: 'separator' },
      isMac ? { role: 'close' } : { role: 'quit' }
    ]
  }
  return [
    ...(isMac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    file,
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }]
    },
    { role: 'windowMenu' }
  ]
}
