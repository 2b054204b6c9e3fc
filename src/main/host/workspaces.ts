import { createHash } from 'node:crypto'
import {
  requestChannels,
  WORKSPACES_CHANNELS,
  type RequestOf,
  type ResponseOf,
  type WorkspacesMenu
} from '../../shared/ipc'
import { canonicalFolder, RecentListError, type RecentWorkspaces } from '../workspaces/recent'
import type { BridgedService } from './types'

/**
 * The web host's open workspaces (docs/ui.md#the-workspace-ui "open a folder", docs/events.md#event-stream-and-command-line): the browser equivalent of the
 * Electron app's one window per workspace. Each workspace has an id, `/?workspace=ID` is its page
 * (opened in its own tab) and `/bridge?workspace=ID` its socket, so a tab's connection is bound to
 * one workspace. Opening a folder already open reuses its service. Workspaces stay open until the
 * host stops (a closed tab may be reopened or reloaded); {@link dispose} disposes them all.
 */

/** A workspace runtime as the set uses it: `WorkspaceService` structurally. */
export interface WebService extends BridgedService {
  dispose(): Promise<void>
}

/** Options of {@link WebWorkspaces}. */
export interface WebWorkspacesOptions {
  recent: RecentWorkspaces
  /** Starts the runtime of a canonical folder. @throws why it cannot start. */
  startService(folder: string): Promise<WebService>
  /** Where a failure nobody else sees is reported (a recent list that was not written); default stderr. */
  log?: (line: string) => void
}

/** The query parameter of the page and the bridge that names the workspace. */
export const WORKSPACE_PARAM = 'workspace'

/** A workspace's id: the first 16 hex digits of the SHA-256 of its canonical folder, so a tab's URL survives a restart of the host. */
export function workspaceId(folder: string): string {
  return createHash('sha256').update(folder).digest('hex').slice(0, 16)
}

interface Entry {
  id: string
  folder: string
  service: WebService
  /** The service as the bridge sees it: the `workspaces.*` channels answered here. */
  bridged: BridgedService
}

/** The web host's set of open workspaces. */
export class WebWorkspaces {
  private readonly byId = new Map<string, Entry>()
  private readonly opening = new Map<string, Promise<Entry>>()
  private readonly log: (line: string) => void
  private disposed = false

  constructor(private readonly options: WebWorkspacesOptions) {
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`))
  }

  /** The open workspaces, in the order they were opened. */
  list(): Array<{ id: string; folder: string }> {
    return [...this.byId.values()].map(({ id, folder }) => ({ id, folder }))
  }

  /** The bridged service of workspace `id`, or undefined when no such workspace is open. */
  bridged(id: string): BridgedService | undefined {
    return this.byId.get(id)?.bridged
  }

  /** The service of workspace `id` (for its owner's diagnostics, e.g. the scripted model's URL). */
  service(id: string): WebService | undefined {
    return this.byId.get(id)?.service
  }

  /**
   * Opens `path` (absolute) as a workspace, or returns the open one for that folder; records it in
   * the recent list either way (a list that cannot be written is logged, not fatal).
   * @throws NotAFolderError when `path` is relative, missing, or not a directory; the runtime's
   *   error when it cannot start.
   */
  async open(path: string): Promise<{ id: string; path: string; alreadyOpen: boolean }> {
    if (this.disposed) throw new Error('The web host is stopping: no workspace can be opened now.')
    const folder = await canonicalFolder(path)
    const id = workspaceId(folder)
    const alreadyOpen = this.byId.has(id)
    if (!alreadyOpen) {
      let pending = this.opening.get(id)
      if (!pending) {
        pending = this.start(id, folder).finally(() => this.opening.delete(id))
        this.opening.set(id, pending)
      }
      await pending
    }
    await this.options.recent
      .record(folder)
      .catch((error: unknown) =>
        this.log(`swarmdesk web host: the recent list was not updated: ${(error as Error).message}`)
      )
    return { id, path: folder, alreadyOpen }
  }

  /** Disposes every workspace (their agents stopped, shells killed); later opens are refused. */
  async dispose(): Promise<void> {
    this.disposed = true
    await Promise.allSettled([...this.opening.values()])
    const entries = [...this.byId.values()]
    this.byId.clear()
    const results = await Promise.allSettled(entries.map((e) => e.service.dispose()))
    results.forEach((r, i) => {
      if (r.status === 'rejected')
        this.log(
          `swarmdesk web host: the workspace ${entries[i]!.folder} did not shut down cleanly: ${(r.reason as Error).message}`
        )
    })
  }

  private async start(id: string, folder: string): Promise<Entry> {
    const service = await this.options.startService(folder)
    if (this.disposed) {
      await service.dispose()
      throw new Error('The web host is stopping: no workspace can be opened now.')
    }
    const entry: Entry = {
      id,
      folder,
      service,
      bridged: {
        handle: (channel, payload) =>
          (WORKSPACES_CHANNELS as string[]).includes(channel)
            ? this.answer(entry, channel, payload)
            : service.handle(channel, payload),
        onPush: (listener) => service.onPush(listener)
      }
    }
    this.byId.set(id, entry)
    return entry
  }

  private async answer(entry: Entry, channel: string, payload: unknown): Promise<unknown> {
    const parsed = parseWorkspacesRequest(channel, payload)
    switch (parsed.channel) {
      case 'workspaces.menu':
        return this.menu(entry)
      case 'workspaces.open': {
        if (parsed.payload.path === undefined)
          throw new WorkspacePathRequiredError(
            'The web host has no folder picker: type the absolute path of the folder to open.'
          )
        const opened = await this.open(parsed.payload.path)
        return {
          opened: true,
          path: opened.path,
          alreadyOpen: opened.alreadyOpen,
          url: `/?${WORKSPACE_PARAM}=${opened.id}`
        } satisfies ResponseOf<'workspaces.open'>
      }
      case 'workspaces.forget':
        return {
          recent: await this.options.recent.forget(parsed.payload.path)
        } satisfies ResponseOf<'workspaces.forget'>
    }
  }

  private async menu(entry: Entry): Promise<WorkspacesMenu> {
    try {
      return { current: entry.folder, recent: await this.options.recent.list(), picker: 'path' }
    } catch (error) {
      if (!(error instanceof RecentListError)) throw error
      return { current: entry.folder, recent: [], picker: 'path', problem: error.message }
    }
  }
}

/** `workspaces.open` without a path on a host that cannot show a folder picker. */
export class WorkspacePathRequiredError extends Error {
  override readonly name = 'WorkspacePathRequiredError'
}

/** A `workspaces.*` request whose payload the contract rejects (the bridge passes payloads unchecked). */
export class WorkspacesRequestError extends Error {
  override readonly name = 'IpcRequestError'
}

const requestSchemas = {
  'workspaces.menu': requestChannels['workspaces.menu'].request,
  'workspaces.open': requestChannels['workspaces.open'].request,
  'workspaces.forget': requestChannels['workspaces.forget'].request
}

type WorkspacesRequest =
  | { channel: 'workspaces.menu'; payload: RequestOf<'workspaces.menu'> }
  | { channel: 'workspaces.open'; payload: RequestOf<'workspaces.open'> }
  | { channel: 'workspaces.forget'; payload: RequestOf<'workspaces.forget'> }

/** Validates a `workspaces.*` payload against the contract. @throws WorkspacesRequestError naming the channel and the problem. */
function parseWorkspacesRequest(channel: string, payload: unknown): WorkspacesRequest {
  const schema = requestSchemas[channel as WorkspacesRequest['channel']]
  const parsed = schema.safeParse(payload ?? {})
  if (!parsed.success)
    throw new WorkspacesRequestError(
      `Bad payload for '${channel}': ${parsed.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ')}`
    )
  return { channel, payload: parsed.data } as WorkspacesRequest
}
