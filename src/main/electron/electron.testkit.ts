import { EventEmitter } from 'node:events'
import type { IpcMainInvokeEvent, WebContents } from 'electron'
import type { PushChannel } from '../../shared/ipc'
import { toDisposable, type Disposable } from '../runtime/base/disposable'
import type { WorkspaceHost } from './ipc'

/** Test doubles for the Electron objects the handlers touch; electron itself cannot load here. */

/** An `ipcMain` that keeps handlers in a map so a test can invoke them as a renderer would. */
export class FakeIpcMain {
  readonly handlers = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>()
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
    this.handlers.set(channel, listener)
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel)
  }
  /** Calls the handler of `channel` with an event from a frame at `url`, sent by the web contents `sender` (by default one with id 1). */
  async invoke(
    channel: string,
    payload: unknown,
    frame: FakeFrame | null = { url: APP_URL, parent: null },
    sender: { id: number } = { id: 1 }
  ): Promise<unknown> {
    const handler = this.handlers.get(channel)
    if (!handler) throw new Error(`No handler registered for '${channel}'`)
    return handler({ senderFrame: frame, sender } as unknown as IpcMainInvokeEvent, payload)
  }
}

/** The parts of a `WebFrameMain` the sender check reads. */
export interface FakeFrame {
  url: string
  parent: FakeFrame | null
}

/** The app's built page in these tests. */
export const INDEX_HTML = '/opt/swarmdesk/out/renderer/index.html'
export const APP_URL = 'file:///opt/swarmdesk/out/renderer/index.html'

/** A minimal stand-in for WorkspaceService: records requests and lets a test push. */
export class FakeWorkspaceHost implements WorkspaceHost {
  readonly calls: Array<{ channel: string; payload: unknown }> = []
  private readonly listeners = new Set<(channel: PushChannel, payload: unknown) => void>()
  answer: (channel: string, payload: unknown) => Promise<unknown> = async () => ({ ok: true })

  handle(channel: string, payload: unknown): Promise<unknown> {
    this.calls.push({ channel, payload })
    return this.answer(channel, payload)
  }
  onPush(listener: (channel: PushChannel, payload: unknown) => void): Disposable {
    this.listeners.add(listener)
    return toDisposable(() => this.listeners.delete(listener))
  }
  push(channel: string, payload: unknown): void {
    for (const l of this.listeners) l(channel as PushChannel, payload)
  }
  get listenerCount(): number {
    return this.listeners.size
  }
}

/** A `WebContents` with real `on`/`emit`, a window-open handler slot and recorded sends. */
export class FakeWebContents extends EventEmitter {
  readonly sent: Array<{ channel: string; payload: unknown }> = []
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined
  destroyed = false
  private static nextId = 1
  /** Unique per instance, as Electron's `webContents.id` is. */
  readonly id = FakeWebContents.nextId++
  constructor(public url: string = APP_URL) {
    super()
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler
  }
  getURL(): string {
    return this.url
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload })
  }
  asWebContents(): WebContents {
    return this as unknown as WebContents
  }
}

/** An Electron-style event whose `preventDefault` is observable. */
export function fakeEvent<T extends object>(
  fields: T = {} as T
): T & { preventDefault: () => void; defaultPrevented: boolean } {
  const event = {
    ...fields,
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true
    }
  }
  return event
}
