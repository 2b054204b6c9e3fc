import { app, BrowserWindow, dialog, ipcMain, session } from 'electron'
import { realpath } from 'node:fs/promises'
import { join } from 'node:path'
import { swarmdeskHome } from '../runtime/storage'
import { createDemoWorkspace, demoPaths } from '../app/demoWorkspace'
import { WorkspaceService } from '../app/service'
import { ApiKeyHolder } from '../runtime/model'
import type { ApiKeyStore } from '../app/settingsControl'
import type { Disposable } from '../runtime/base'
import { RecentWorkspaces } from '../workspaces/recent'
import { parseLaunchOptions, type LaunchOptions } from './args'
import { registerWorkspaceIpc } from './ipc'
import { createAppOrigin, type AppOrigin } from './origin'
import { createKeychainApiKeyStore, readApiKey } from './secrets'
import { hardenSession } from './session'
import { createAppWindow, hardenWebContents } from './window'
import { secondLaunchFolder, WorkspaceRegistry } from './workspaces'

/** Where the build put the preload and the renderer, relative to the app (package.json) folder. */
function buildPaths(): { preload: string; indexHtml: string } {
  const root = app.getAppPath()
  return { preload: join(root, 'out', 'preload', 'index.js'), indexHtml: join(root, 'out', 'renderer', 'index.html') }
}

/**
 * The app's live API key, shared by its workspaces: the one stored in Settings (the environment's
 * ANTHROPIC_API_KEY wins over it inside the runtime). Without one the app opens all the same (a
 * first run): the workspace says there is no key, and a key entered in Settings starts the leader
 * at once. A keychain that cannot be read is reported but not fatal, for the same reason.
 */
export async function storedApiKey(home: string): Promise<ApiKeyHolder> {
  try {
    return new ApiKeyHolder(await readApiKey(home))
  } catch (error) {
    console.warn(`Swarmdesk: the stored API key could not be read: ${(error as Error).message}`)
    return new ApiKeyHolder()
  }
}

/** The keychain store, with every change also made to the live key: a key saved in Settings applies at once. */
export function liveApiKeyStore(store: ApiKeyStore, live: ApiKeyHolder): ApiKeyStore {
  return {
    status: () => store.status(),
    async set(apiKey, acceptUnencrypted) {
      const status = await store.set(apiKey, acceptUnencrypted)
      live.set(apiKey)
      return status
    },
    async clear() {
      const status = await store.clear()
      live.set(undefined)
      return status
    }
  }
}

/**
 * How the app starts a workspace's runtime: the launch's own folder as the command line says
 * (`--demo`: a fresh copy of the bundled demo workspace, its scenario and no project settings),
 * and every folder opened later with the launch's `--scenario`, if any.
 */
async function serviceStarter(
  launch: LaunchOptions
): Promise<{ firstFolder: string; start: (folder: string) => Promise<WorkspaceService> }> {
  const home = swarmdeskHome(process.env)
  const env = process.env
  const apiKey = await storedApiKey(home)
  // Settings stores the key with the OS keychain, and the running workspaces use it at once; the environment's key wins over it
  const apiKeys = liveApiKeyStore(createKeychainApiKeyStore(home, process.env), apiKey)
  if (launch.demo) {
    // canonical, as the registry compares it (a temp folder may sit behind a symlink)
    const demoCwd = await realpath(await createDemoWorkspace())
    return {
      firstFolder: demoCwd,
      start: (folder) =>
        folder === demoCwd
          ? WorkspaceService.start({
              cwd: folder,
              home,
              scenario: demoPaths().scenario,
              settingsFiles: [],
              trustProject: false,
              env,
              apiKeys,
              apiKey
            })
          : WorkspaceService.start({ cwd: folder, home, scenario: demoPaths().scenario, env, apiKeys, apiKey })
    }
  }
  return {
    firstFolder: launch.cwd,
    start: (folder) =>
      WorkspaceService.start({
        cwd: folder,
        home,
        scenario: launch.scenario,
        env,
        apiKeys,
        apiKey,
        mcpConfigFiles: launch.mcpConfigFiles,
        claudeSession: launch.claudeSession && folder === launch.cwd,
        ...(launch.claudePath ? { claudePath: launch.claudePath } : {})
      })
  }
}

/**
 * Boots the desktop app: one instance per user, one window per workspace ({@link WorkspaceRegistry}).
 * The launch's folder opens first (its runtime started before its window, so the first snapshot is
 * ready); a second launch naming a folder opens it in this instance, or focuses it when it is open
 * (a second launch naming none brings the app to the front). Every web contents is hardened; the
 * app quits when the last window closes, and only after every workspace is disposed (agents
 * stopped, shells killed).
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
  let registry: WorkspaceRegistry | undefined
  let ipc: Disposable | undefined

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, origin))
  /** Folders second launches asked for before the first workspace was up; opened once it is. */
  let queued: string[] | undefined = []
  const openLaunched = (folder: string): void => {
    registry
      ?.open(folder)
      .catch((error: unknown) =>
        dialog.showErrorBox('Swarmdesk cannot open the workspace', `${folder}\n\n${(error as Error).message}`)
      )
  }
  app.on('second-instance', (_event, argv: string[], workingDirectory: string) => {
    const { folder } = secondLaunchFolder(argv, workingDirectory, app.isPackaged)
    if (queued) {
      if (folder !== undefined) queued.push(folder)
      return
    }
    if (folder === undefined) return void registry?.focusAny()
    openLaunched(folder)
  })
  app.on('window-all-closed', () => app.quit())

  let shutDown = false
  app.on('will-quit', (event) => {
    if (shutDown) return
    event.preventDefault()
    ipc?.dispose()
    void (registry?.dispose() ?? Promise.resolve())
      .catch((error: unknown) => console.error('Swarmdesk: the workspaces did not shut down cleanly:', error))
      .finally(() => {
        shutDown = true
        app.quit()
      })
  })

  void app.whenReady().then(async () => {
    hardenSession(session.defaultSession, origin, devServerUrl)
    let firstFolder = launch.cwd
    try {
      const starter = await serviceStarter(launch)
      firstFolder = starter.firstFolder
      registry = new WorkspaceRegistry({
        origin,
        recent: new RecentWorkspaces(swarmdeskHome(process.env)),
        startService: starter.start,
        createWindow: () =>
          createAppWindow({ origin, preload: paths.preload, indexHtml: paths.indexHtml, devServerUrl }),
        pickFolder: async (parent) => {
          const picked = await dialog.showOpenDialog(parent as BrowserWindow, {
            title: 'Open a folder as a workspace',
            properties: ['openDirectory', 'createDirectory']
          })
          return picked.canceled ? undefined : picked.filePaths[0]
        }
      })
      ipc = registerWorkspaceIpc({ ipcMain, host: registry.router, origin, targets: () => [] })
      await registry.open(firstFolder)
      const waiting = queued ?? []
      queued = undefined
      for (const folder of waiting) openLaunched(folder)
    } catch (error) {
      dialog.showErrorBox('Swarmdesk cannot open the workspace', `${firstFolder}\n\n${(error as Error).message}`)
      app.exit(1)
    }
  })
}
