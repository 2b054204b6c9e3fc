import type { PushChannel } from '../../shared/ipc'
import { toDisposable } from '../runtime/base/disposable'
import { PaneBatcher } from '../app/paneBatcher'
import { PaneTerminals } from '../app/panes'
import type { BridgedService } from './types'

/**
 * The workspace's pane pipeline as WorkspaceService wires it, for tests of the bridge and of the
 * page against it: agents' output goes through the real PaneBatcher (a paused pane stops
 * producing, as a paused PTY does) into the real headless terminals, which number the chunks
 * pushed as `pane.data`; `pane.ack`, `pane.scrollback` and `pane.mute` are answered as the service
 * answers them. Each agent in `ids` writes `linesPerWrite` numbered lines (`<id> line <n> xxx…`,
 * under 60 characters, then CRLF) every 5 ms between `start` and `stop`.
 */
export function paneWorkspace(ids: string[], linesPerWrite: number) {
  const listeners = new Set<(channel: PushChannel, payload: unknown) => void>()
  const panes = new PaneTerminals()
  panes.onDidWrite((agentId, data, chunk) => {
    for (const l of [...listeners]) l('pane.data', { agentId, data, chunk })
  })
  const paused = new Set<string>()
  const batcher = new PaneBatcher({
    flush: (agentId, data) => panes.write(agentId, data),
    pause: (id) => paused.add(id),
    resume: (id) => paused.delete(id)
  })
  const produced = new Map<string, number>()
  let timer: ReturnType<typeof setInterval> | undefined
  const produce = () => {
    for (const agentId of ids) {
      if (paused.has(agentId)) continue
      let data = ''
      for (let i = 0; i < linesPerWrite; i++) {
        const n = (produced.get(agentId) ?? 0) + 1
        produced.set(agentId, n)
        data += `${agentId} line ${n} ${'x'.repeat(40)}\r\n`
      }
      batcher.write(agentId, data)
    }
  }
  const service: BridgedService = {
    handle: async (channel, payload: any) => {
      switch (channel) {
        case 'pane.ack':
          for (const { agentId, chunk } of payload.acks) batcher.ack(agentId, chunk)
          return { ok: true }
        case 'pane.scrollback': {
          batcher.flushPane(payload.agentId)
          const scrollback = await panes.scrollback(payload.agentId)
          batcher.ack(payload.agentId, scrollback.chunk)
          return scrollback
        }
        case 'pane.mute':
          return { ok: true }
      }
      throw Object.assign(new Error(`unknown channel '${channel}'`), { name: 'IpcRequestError' })
    },
    onPush: (listener) => {
      listeners.add(listener)
      return toDisposable(() => listeners.delete(listener))
    }
  }
  return {
    service,
    batcher,
    /** Lines written so far to the pane. */
    lines: (agentId: string) => produced.get(agentId) ?? 0,
    start: () => void (timer ??= setInterval(produce, 5)),
    stop: () => {
      if (timer !== undefined) clearInterval(timer)
      timer = undefined
      batcher.flushAll()
    },
    dispose: () => {
      if (timer !== undefined) clearInterval(timer)
      batcher.dispose()
      panes.dispose()
    }
  }
}
