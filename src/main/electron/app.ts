import { app, BrowserWindow, dialog, ipcMain, session } from 'electron'
import { join } from 'node:path'
import { swarmdeskHome } from '../runtime/transcripts/paths'
import { createDemoWorkspace, demoPaths } from '../runtime/workspace/demoWorkspace'
import { WorkspaceService } from '../runtime/workspace/service'
import type { Disposable } from '../runtime/lifecycle/disposable'
import { parseLaunchOptions, type LaunchOptions } from './args'
import { registerWorkspaceIpc } from './ipc'
import { createAppOrigin, type AppOrigin } from './origin'
import { createKeychainApiKeyStore, readApiKey } from './secrets'
import { hardenSession } from './session'
import { createAppWindow, hardenWebContents } from './window'

/** Where the build put the preload and the renderer, relative to the app (package.json) folder. */
function buildPaths(): { preload: string; indexHtml: string } {
  const root = app.getAppPath()
  return { preload: join(root, 'out', 'preload', 'index.js'), indexHtml: join(root, 'out', 'renderer', 'index.html') }
}

/**
 * The ANTHROPIC_API_KEY the runtime gets: the environment's, else the one stored in Settings.
 * A keychain that cannot be read is reported but not fatal: the scripted model needs no key, and
 * the runtime names the missing key itself when a real model needs one.
 */
async function apiKeyEnv(home: string): Promise<NodeJS.ProcessEnv> {
  if (process.env.ANTHROPIC_API_KEY) return process.env
  try {
    const key = await readApiKey(home)
    return key ? { ...process.env, ANTHROPIC_API_KEY: key } : process.env
  } catch (error) {
    console.warn(`Swarmdesk: the stored API key could not be read: ${(error as Error).message}`)
    return process.env
  }
}

async function startService(launch: LaunchOptions): Promise<WorkspaceService> {
  const home = swarmdeskHome(process.env)
  const env = await apiKeyEnv(home)
  // Settings stores the key with the OS keychain; the environment's key wins over it
  const apiKeys = createKeychainApiKeyStore(home, process.env)
  if (launch.demo) {
    const cwd = await createDemoWorkspace()
    return WorkspaceService.start({ cwd, home, scenario: demoPaths().scenario, settingsFiles: [], trustProject: false, env, apiKeys })
  }
  return WorkspaceService.start({ cwd: launch.cwd, home, scenario: launch.scenario, env, apiKeys })
}

/**
 * Boots the desktop app: one instance per user (a second launch focuses the first window),
 * the workspace runtime started before the window so the first snapshot is ready, every web
 * contents hardened, and on quit the runtime disposed (agents stopped, shells killed) before the
 * process exits.
 */
export function runApp(): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return
  }
  app.enableSandbox()
  const launch = parseLaunchOptions(process.argv.slice(1), process.env, process.cwd())
  const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined
  const paths = buildPaths()
  const origin: AppOrigin = createAppOrigin(paths.indexHtml, devServerUrl)
  let service: WorkspaceService | undefined
  let ipc: Disposable | undefined
  let window: BrowserWindow | undefined

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, origin))
  app.on('second-instance', () => {
    if (!window || window.isDestroyed()) return
    if (window.isMinimized()) window.restore()
    window.focus()
  })
  app.on('window-all-closed', () => app.quit())

  let shutDown = false
  app.on('will-quit', (event) => {
    if (shutDown) return
    event.preventDefault()
    ipc?.dispose()
    void (service?.dispose() ?? Promise.resolve())
      .catch((error: unknown) => console.error('Swarmdesk: the workspace did not shut down cleanly:', error))
      .finally(() => {
        shutDown = true
        app.quit()
      })
  })

  void app.whenReady().then(async () => {
    hardenSession(session.defaultSession, origin, devServerUrl)
    try {
      service = await startService(launch)
    } catch (error) {
      dialog.showErrorBox('Swarmdesk cannot open the workspace', `${launch.cwd}\n\n${(error as Error).message}`)
      app.exit(1)
      return
    }
    ipc = registerWorkspaceIpc({ ipcMain, host: service, origin, targets: () => BrowserWindow.getAllWindows().map((w) => w.webContents) })
    window = createAppWindow({ origin, preload: paths.preload, indexHtml: paths.indexHtml, devServerUrl })
  })
}
