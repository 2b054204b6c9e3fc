import type { BrowserWindow, WebContents } from 'electron'
import { parseArgs } from 'node:util'
import { resolve } from 'node:path'
import {
  requestChannels,
  WORKSPACES_CHANNELS,
  type RequestOf,
  type ResponseOf,
  type WorkspacesMenu
} from '../../shared/ipc'
import { toDisposable } from '../runtime/base'
import { canonicalFolder, RecentListError, type RecentWorkspaces } from '../workspaces/recent'
import { forwardPushes, type PushForwarder, type WorkspaceHost } from './ipc'
import type { AppOrigin } from './origin'

/**
 * One window per workspace (docs/ui.md#the-workspace-ui "one window per workspace"): the Electron main's registry of
 * open workspaces, folder → service + window. IPC requests are routed to the service of the
 * sender's window (by `webContents.id`), and each service's pushes go to its own window only.
 * Opening a folder that is already open focuses its window; closing a window disposes its service
 * (agents stopped, shells killed); the app quits when the last window is gone (app.ts).
 */

/** A started workspace as the registry uses it: `WorkspaceService` structurally. */
export interface OpenableService {
  handle(channel: string, payload: unknown): Promise<unknown>
  onPush: WorkspaceHost['onPush']
  /** Stops its agents, kills its shells; resolves once everything is down. */
  dispose(): Promise<void>
}

/** The window operations the registry needs (a `BrowserWindow`'s, structurally). */
export type WorkspaceWindow = Pick<BrowserWindow, 'focus' | 'isMinimized' | 'restore' | 'isDestroyed' | 'once'> & {
  readonly webContents: WebContents
}

/** What the registry is built from; app.ts passes Electron's, tests their own. */
export interface WorkspaceRegistryOptions {
  origin: AppOrigin
  recent: RecentWorkspaces
  /** Starts the runtime of a canonical folder (`WorkspaceService.start`). @throws why it cannot start. */
  startService(folder: string): Promise<OpenableService>
  /** Creates the app window (hardened, loading the renderer) for a workspace. */
  createWindow(folder: string): WorkspaceWindow
  /** The OS folder picker, parented to `parent`; undefined when the person cancels. */
  pickFolder(parent: WorkspaceWindow): Promise<string | undefined>
  /** Where a failure nobody else sees is reported (a failed recent-list write); default stderr. */
  log?: (line: string) => void
}

/** An open workspace. */
interface OpenWorkspace {
  folder: string
  service: OpenableService
  window: WorkspaceWindow
  contentsId: number
  pushes: PushForwarder
}

/** How {@link WorkspaceRegistry.open} went. */
export interface OpenResult {
  /** The canonical folder. */
  path: string
  /** It was open already, and its window was focused. */
  alreadyOpen: boolean
}

/** Which workspace the app is asked to show by command-line arguments of a (second) launch. */
export interface LaunchFolder {
  /** Absolute folder, or undefined when the launch named none (then the app only comes to the front). */
  folder: string | undefined
}

/**
 * The folder a second launch asks for (the `second-instance` event's argv and working
 * directory): `--cwd DIR`, else, in a packaged app, the first positional argument (a folder
 * dropped on the app or given in a shell). In development the positionals are Electron's own
 * (the app path), so only `--cwd` counts. Relative paths resolve against the launch's directory.
 */
export function secondLaunchFolder(argv: string[], workingDirectory: string, packaged: boolean): LaunchFolder {
  const { values, positionals } = parseArgs({
    args: argv.slice(1),
    strict: false,
    allowPositionals: true,
    options: { cwd: { type: 'string' } }
  })
  const named =
    typeof values.cwd === 'string' && values.cwd.length > 0
      ? values.cwd
      : packaged
        ? positionals.find((p) => !p.startsWith('-'))
        : undefined
  return { folder: named === undefined ? undefined : resolve(workingDirectory, named) }
}

/** The request came from a window that shows no workspace (being closed, or never registered). */
export class NoWorkspaceError extends Error {
  override readonly name = 'NoWorkspaceError'
}

/** A `pane.mute` payload that is not `{agentId, muted}` reached the registry. */
export class InvalidPaneMuteError extends Error {
  override readonly name = 'InvalidPaneMuteError'
}

/**
 * The registry of open workspaces. Its {@link router} is the one {@link WorkspaceHost} handed to
 * `registerWorkspaceIpc`: it answers the `workspaces.*` channels itself and passes every other
 * request to the sender's workspace.
 */
export class WorkspaceRegistry {
  private readonly byFolder = new Map<string, OpenWorkspace>()
  private readonly byContents = new Map<number, OpenWorkspace>()
  /** Opens in progress, so two requests for one folder start one service. */
  private readonly opening = new Map<string, Promise<OpenWorkspace>>()
  /** Services being disposed after their window closed. */
  private readonly closing = new Set<Promise<void>>()
  private readonly log: (line: string) => void
  private disposed = false

  constructor(private readonly options: WorkspaceRegistryOptions) {
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`))
  }

  /** Number of open workspaces. */
  get size(): number {
    return this.byFolder.size
  }

  /** The canonical folders open now, in the order they were opened. */
  folders(): string[] {
    return [...this.byFolder.keys()]
  }

  /** The workspace host for `registerWorkspaceIpc`: routes by the sender's web contents id. */
  readonly router: WorkspaceHost = {
    handle: (channel, payload, sender) => {
      const workspace = sender ? this.byContents.get(sender.id) : undefined
      if (!workspace)
        return Promise.reject(new NoWorkspaceError(`${channel} refused: this window shows no open workspace`))
      if ((WORKSPACES_CHANNELS as string[]).includes(channel)) return this.answer(workspace, channel, payload)
      if (channel === 'pane.mute') return this.mute(workspace, payload)
      return workspace.service.handle(channel, payload)
    },
    // pushes go per workspace to its own window (see open); nothing is broadcast to all windows
    onPush: () => toDisposable(() => undefined)
  }

  /**
   * Opens `path` as a workspace in a new window, or focuses its window when it is already open.
   * Records it in the recent list either way (a list that cannot be written is logged, not fatal).
   * @throws NotAFolderError when `path` does not exist or is not a directory; the service's error
   *   when the runtime cannot start (the window is then never created).
   */
  async open(path: string): Promise<OpenResult> {
    if (this.disposed) throw new Error('Swarmdesk is quitting: no workspace can be opened now.')
    const folder = await canonicalFolder(path)
    const open = this.byFolder.get(folder)
    const alreadyOpen = open !== undefined
    if (open) this.focus(open)
    else {
      let pending = this.opening.get(folder)
      if (!pending) {
        pending = this.start(folder).finally(() => this.opening.delete(folder))
        this.opening.set(folder, pending)
      }
      await pending
    }
    await this.options.recent
      .record(folder)
      .catch((error: unknown) => this.log(`Swarmdesk: the recent list was not updated: ${(error as Error).message}`))
    return { path: folder, alreadyOpen }
  }

  /**
   * A `pane.mute` from the workspace's window: its one push forwarder (see {@link start}) stops or
   * resumes that pane's output, so the mute is the window's, as the web host's are a socket's.
   * @throws InvalidPaneMuteError for a payload that is not `{agentId, muted}`.
   */
  private async mute(workspace: OpenWorkspace, payload: unknown): Promise<{ ok: true }> {
    const parsed = requestChannels['pane.mute'].request.safeParse(payload)
    if (!parsed.success)
      throw new InvalidPaneMuteError(
        `pane.mute: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ')}. Send {agentId, muted: true|false}.`
      )
    workspace.pushes.mute(parsed.data.agentId, parsed.data.muted)
    return { ok: true }
  }

  /** Brings the window of the workspace at the front (restoring it when minimised); false when none is open. */
  focusAny(): boolean {
    const last = [...this.byFolder.values()].at(-1)
    if (!last) return false
    this.focus(last)
    return true
  }

  /**
   * Disposes every open workspace and waits for those whose windows closed earlier; later opens
   * are refused. Failures are logged; resolves once all are down.
   */
  async dispose(): Promise<void> {
    this.disposed = true
    for (const workspace of [...this.byFolder.values()]) this.close(workspace)
    await Promise.all([...this.closing])
  }

  private async start(folder: string): Promise<OpenWorkspace> {
    const service = await this.options.startService(folder)
    if (this.disposed) {
      await service.dispose()
      throw new Error('Swarmdesk is quitting: no workspace can be opened now.')
    }
    const window = this.options.createWindow(folder)
    const contents = window.webContents
    const workspace: OpenWorkspace = {
      folder,
      service,
      window,
      contentsId: contents.id,
      pushes: forwardPushes(service, this.options.origin, () => [contents])
    }
    this.byFolder.set(folder, workspace)
    this.byContents.set(workspace.contentsId, workspace)
    window.once('closed', () => this.close(workspace))
    return workspace
  }

  /** Forgets the workspace and disposes its service (in the background; {@link dispose} waits for it). */
  private close(workspace: OpenWorkspace): void {
    if (this.byFolder.get(workspace.folder) !== workspace) return
    this.byFolder.delete(workspace.folder)
    this.byContents.delete(workspace.contentsId)
    workspace.pushes.dispose()
    const done: Promise<void> = workspace.service
      .dispose()
      .catch((error: unknown) =>
        this.log(`Swarmdesk: the workspace ${workspace.folder} did not shut down cleanly: ${(error as Error).message}`)
      )
      .finally(() => this.closing.delete(done))
    this.closing.add(done)
  }

  private focus(workspace: OpenWorkspace): void {
    const { window } = workspace
    if (window.isDestroyed()) return
    if (window.isMinimized()) window.restore()
    window.focus()
  }

  private async answer(workspace: OpenWorkspace, channel: string, payload: unknown): Promise<unknown> {
    switch (channel as (typeof WORKSPACES_CHANNELS)[number]) {
      case 'workspaces.menu':
        return this.menu(workspace)
      case 'workspaces.open': {
        const { path } = payload as RequestOf<'workspaces.open'>
        const chosen = path ?? (await this.options.pickFolder(workspace.window))
        if (chosen === undefined) return { opened: false } satisfies ResponseOf<'workspaces.open'>
        const result = await this.open(chosen)
        return { opened: true, ...result } satisfies ResponseOf<'workspaces.open'>
      }
      case 'workspaces.forget': {
        const { path } = payload as RequestOf<'workspaces.forget'>
        return { recent: await this.options.recent.forget(path) } satisfies ResponseOf<'workspaces.forget'>
      }
    }
  }

  private async menu(workspace: OpenWorkspace): Promise<WorkspacesMenu> {
    try {
      return { current: workspace.folder, recent: await this.options.recent.list(), picker: 'dialog' }
    } catch (error) {
      if (!(error instanceof RecentListError)) throw error
      return { current: workspace.folder, recent: [], picker: 'dialog', problem: error.message }
    }
  }
}
