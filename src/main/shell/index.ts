import { app, BrowserWindow, dialog, ipcMain, Menu, safeStorage, session, shell, type WebContents } from 'electron'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Project } from '../store/project'
import { EventHub } from '../events'
import { curatorSession, type ApiContext } from '../api/context'
import { lockedAnnotatorSession } from '../api/annotator-session'
import { appRoot } from '../paths'
import { RENDERER_CSP } from '../../shared/security'
import { EVENT_CHANNEL, registerIpc } from './ipc'
import { menuTemplate } from './menu'
import { RecentProjects } from './recent'
import { secureWindowOptions } from './security'
import { APP_ENTRY, devServerUrl as devServerFrom, isTrustedIpcSender, navigationDecision, plaintextKeysOptIn, windowOpenDecision, type NavigationDecision } from './policy'
import { registerAppScheme, serveAppScheme } from './app-protocol'
import { utilityCheckLauncher } from './check-launcher'
import { setCheckLauncher } from '../checks/check-process'
import { loadDemo } from '../demo/load-demo'
import { setDefaultKeyStore } from '../secrets/default'
import { LayeredKeyStore, EnvKeyStore } from '../secrets/key-stores'
import { EncryptedFileKeyStore } from '../secrets/encrypted-file'

// The thin desktop shell: windows, dialogs, menu and IPC. All behaviour lives in the core under src/main.

const here = dirname(fileURLToPath(import.meta.url))
// The dev server's URL is honoured only in an unpackaged build (see policy.ts).
const devServerUrl = devServerFrom(process.env, app.isPackaged)
const hub = new EventHub()
const contexts = new Map<number, ApiContext>()
let recent: RecentProjects

/** better-sqlite3 built for Electron's ABI, kept beside the Node build (see npm run rebuild:electron). */
function electronSqliteBinding(): string | undefined {
  const p = join(appRoot(), 'native', 'electron', 'better_sqlite3.node')
  return existsSync(p) ? p : undefined
}

async function openInWindow(path: string, create = false): Promise<void> {
  let project: Project
  try {
    const nativeBinding = electronSqliteBinding()
    project = await (create ? Project.create(path, nativeBinding ? { nativeBinding } : {}) : Project.open(path, { verify: true, ...(nativeBinding ? { nativeBinding } : {}) }))
  } catch (e) {
    dialog.showErrorBox('Cannot open project', (e as Error).message)
    return
  }
  const packetName = project.isPacket ? project.meta('packet_annotator') : undefined
  let sessionState = curatorSession()
  try {
    // Through the contract, as every other door that adds an annotator: the same rules on names.
    if (packetName) sessionState = await lockedAnnotatorSession(project, hub, packetName)
  } catch (e) {
    project.close()
    dialog.showErrorBox('Cannot open project', (e as Error).message)
    return
  }
  const win = new BrowserWindow(secureWindowOptions(join(here, '../preload/index.cjs'), { title: `Assay — ${project.info().name}` }))
  contexts.set(win.webContents.id, {
    project,
    session: sessionState,
    events: hub,
    // The import screen asks for a file with the native open dialog, attached to this window.
    chooseFile: async ({ title }) => {
      const r = await dialog.showOpenDialog(win, { title, properties: ['openFile'] })
      return r.canceled ? null : (r.filePaths[0] ?? null)
    }
  })
  const unsubscribe = hub.subscribe((event, payload) => {
    if (!win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, event, payload)
  })
  const id = win.webContents.id
  win.on('closed', () => {
    unsubscribe()
    contexts.get(id)?.project.close()
    contexts.delete(id)
  })
  hardenContents(win.webContents)
  win.once('ready-to-show', () => win.show())
  recent.add(path)
  buildMenu()
  await win.loadURL(devServerUrl ? `${devServerUrl}/` : APP_ENTRY)
}

function apply(decision: NavigationDecision, event: { preventDefault(): void }): void {
  if (decision.action === 'allow') return
  event.preventDefault()
  if (decision.action === 'deny-open-external') void shell.openExternal(decision.url)
}

/** Every way a page could leave the app's one document is decided by policy.ts. */
function hardenContents(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    const decision = windowOpenDecision(url, devServerUrl)
    if (decision.action === 'deny-open-external') void shell.openExternal(decision.url)
    return { action: 'deny' }
  })
  contents.on('will-navigate', (event) => apply(navigationDecision(event.url, { isMainFrame: event.isMainFrame, devOrigin: devServerUrl }), event))
  contents.on('will-frame-navigate', (event) => apply(navigationDecision(event.url, { isMainFrame: event.isMainFrame, devOrigin: devServerUrl }), event))
  contents.on('will-redirect', (event) => apply(navigationDecision(event.url, { isMainFrame: event.isMainFrame, devOrigin: devServerUrl }), event))
  contents.on('will-attach-webview', (event) => event.preventDefault())
}

async function newProjectDialog(): Promise<void> {
  const r = await dialog.showSaveDialog({ title: 'New Assay project', defaultPath: 'project.assay', filters: [{ name: 'Assay project', extensions: ['assay'] }] })
  if (!r.canceled && r.filePath) await openInWindow(r.filePath, true)
}

async function openProjectDialog(): Promise<void> {
  const r = await dialog.showOpenDialog({ title: 'Open Assay project', properties: ['openFile'], filters: [{ name: 'Assay project', extensions: ['assay'] }] })
  if (!r.canceled && r.filePaths[0]) await openInWindow(r.filePaths[0])
}

function buildMenu(): void {
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate(
        { newProject: () => void newProjectDialog(), openProject: () => void openProjectDialog(), openRecent: (p) => void openInWindow(p), recent: recent.list() },
        process.platform === 'darwin'
      )
    )
  )
}

/** Opens the project named on the command line, else the most recent one, else the demo. */
async function firstProject(): Promise<void> {
  const arg = process.argv.slice(app.isPackaged ? 1 : 2).find((a) => a.endsWith('.assay'))
  if (arg) return openInWindow(arg, !existsSync(arg))
  const last = recent.list()[0]
  if (last) return openInWindow(last)
  const demo = join(app.getPath('userData'), 'demo.assay')
  if (!existsSync(demo)) {
    const p = await Project.create(demo, electronSqliteBinding() ? { nativeBinding: electronSqliteBinding()! } : {})
    await loadDemo(p)
    p.close()
  }
  return openInWindow(demo)
}

// The report's worker thread opens the project on its own connection: it must load the same Electron build.
const sqliteBinding = electronSqliteBinding()
if (sqliteBinding) process.env.ASSAY_SQLITE_BINDING = sqliteBinding

app.enableSandbox()
registerAppScheme()
void app.whenReady().then(async () => {
  serveAppScheme(join(here, '../renderer'))
  // Worked checks run in utility processes built from this entry (see electron.vite.config.ts).
  setCheckLauncher(utilityCheckLauncher(join(here, 'check-utility.js')))
  recent = new RecentProjects(app.getPath('userData'))
  // API keys: encrypted by the platform in the user-data folder, with the environment as a fallback. Where the
  // platform cannot encrypt (Linux basic_text), keys are stored only if the user started the app opting in.
  const allowPlainText = plaintextKeysOptIn(process.argv, process.env)
  setDefaultKeyStore(
    new LayeredKeyStore(new EncryptedFileKeyStore(join(app.getPath('userData'), 'keys.json'), safeStorage, { allowPlainText }), new EnvKeyStore())
  )
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
  session.defaultSession.setPermissionCheckHandler(() => false)
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [RENDERER_CSP] } })
  })
  registerIpc(
    ipcMain,
    (sender) => contexts.get(sender.id),
    (event) =>
      isTrustedIpcSender(
        { knownWindow: contexts.has(event.sender.id), isMainFrame: event.senderFrame !== null && event.senderFrame === event.sender.mainFrame, frameUrl: event.senderFrame?.url },
        devServerUrl
      )
  )
  buildMenu()
  await firstProject()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void firstProject()
  })
})

app.on('web-contents-created', (_e, contents) => hardenContents(contents))
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})
