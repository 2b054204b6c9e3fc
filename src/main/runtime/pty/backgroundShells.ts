import {
  type BackgroundShells,
  type BackgroundShellStatus,
  type LineFilter,
  type PtyHost,
  type PtyProcess
} from './types'
import { TailBuffer } from './outputBuffers'
import { cleanTerminalOutput } from './terminalText'

/** Options of {@link createBackgroundShells}. */
export interface BackgroundShellsOptions {
  /**
   * Unread output kept per shell, in characters (default 4 MiB). A chatty dev server nobody
   * reads would otherwise grow without bound; older unread output is dropped and the next read
   * says how much.
   */
  maxBufferedChars?: number
}

interface ShellEntry {
  shellId: string
  command: string
  proc: PtyProcess
  unread: TailBuffer
  status: BackgroundShellStatus['status']
  exitCode: number | null
  killRequested: boolean
}

const DEFAULT_MAX_BUFFERED_CHARS = 4 << 20

/**
 * A trailing `\r` (maybe the first half of `\r\n`) or an unfinished escape sequence: held back
 * until the next read while the shell runs, so a read boundary never leaves escape debris or a
 * spurious blank line in the model's text.
 */
const INCOMPLETE_TAIL = /(\r|\x1b(\[[0-9;?]*|\][^\x07\x1b]*)?)$/

/**
 * The background shells of one agent (docs/tools.md#tools `run_in_background`, BashOutput, KillShell; docs/agents.md#cleanup
 * cleanup calls `killAll`). Ids are `bash_1`, `bash_2`, … in start order, unique within the
 * registry. Each shell is a PTY of `host` (so its process group is killed and verified gone when
 * it ends or is killed); its raw output goes to `onData` for the pane and into a bounded unread
 * buffer that `read` drains.
 */
export function createBackgroundShells(host: PtyHost, options: BackgroundShellsOptions = {}): BackgroundShells {
  const shells = new Map<string, ShellEntry>()
  const maxBuffered = options.maxBufferedChars ?? DEFAULT_MAX_BUFFERED_CHARS
  let nextId = 1

  function start(startOptions: Parameters<BackgroundShells['start']>[0]): { shellId: string } {
    const shellId = `bash_${nextId++}`
    const unread = new TailBuffer(maxBuffered)
    const onData = startOptions.onData
    const proc = host.spawn({
      command: startOptions.command,
      cwd: startOptions.cwd,
      env: startOptions.env,
      onData: (data) => {
        unread.push(data)
        onData?.(data)
      },
      onExit: ({ exitCode, signal }) => {
        const ending = startOptions.onEnd?.()
        if (ending) {
          unread.push(`\r\n${ending}\r\n`)
          onData?.(`\r\n${ending}\r\n`)
        }
        entry.exitCode = exitCode
        if (entry.killRequested) entry.status = 'killed'
        else entry.status = exitCode === 0 && signal === null ? 'completed' : 'failed'
      }
    })
    const entry: ShellEntry = {
      shellId,
      command: startOptions.label ?? startOptions.command,
      proc,
      unread,
      status: 'running',
      exitCode: null,
      killRequested: false
    }
    shells.set(shellId, entry)
    return { shellId }
  }

  function read(shellId: string, filter?: LineFilter): BackgroundShellStatus | undefined {
    const entry = shells.get(shellId)
    if (!entry) return undefined
    const taken = entry.unread.take()
    const { droppedChars } = taken
    let { text } = taken
    if (entry.status === 'running') {
      const incomplete = INCOMPLETE_TAIL.exec(text)
      if (incomplete) {
        entry.unread.unshift(incomplete[0])
        text = text.slice(0, incomplete.index)
      }
    }
    let cleaned = cleanTerminalOutput(text)
    if (filter) cleaned = keepMatchingLines(cleaned, filter)
    const note = droppedChars > 0 ? `[... ${droppedChars} earlier characters were dropped unread ...]\n` : ''
    return {
      shellId,
      command: entry.command,
      status: entry.status,
      exitCode: entry.exitCode,
      newOutput: note + cleaned
    }
  }

  async function kill(shellId: string): Promise<boolean> {
    const entry = shells.get(shellId)
    if (!entry || entry.status !== 'running') return false
    entry.killRequested = true
    await entry.proc.kill()
    entry.status = 'killed'
    return true
  }

  return {
    start,
    read,
    kill,
    async killAll() {
      await Promise.all([...shells.keys()].map(kill))
    },
    runningCount: () => [...shells.values()].filter((entry) => entry.status === 'running').length,
    list: () => [...shells.values()].map(({ shellId, command, status }) => ({ shellId, command, status }))
  }
}

/** Lines of `text` matching `filter`; a `g`/`y` RegExp's `lastIndex` is reset for every line. */
function keepMatchingLines(text: string, filter: LineFilter): string {
  const endsWithNewline = text.endsWith('\n')
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split('\n')
  const kept = lines.filter((line) => {
    if (filter instanceof RegExp) filter.lastIndex = 0
    return filter.test(line)
  })
  return kept.length > 0 ? kept.join('\n') + (endsWithNewline ? '\n' : '') : ''
}
