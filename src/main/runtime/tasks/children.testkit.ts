import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { bundleEntry } from '../../testkit/bundleEntry.testkit'

/** Bundles the test child entry (child.ts) to a temp file and returns its path. Tests only. */
export async function buildChild(): Promise<string> {
  return bundleEntry(
    join(__dirname, 'child.testkit.ts'),
    join(mkdtempSync(join(tmpdir(), 'swarmdesk-child-')), 'child.mjs')
  )
}

/** A running child: its process, a promise of its `ready` line, and a promise of every line it printed. */
export interface Child {
  proc: ChildProcess
  ready: Promise<void>
  lines: Promise<unknown[]>
}

/** Starts the bundled child with `command` (see child.ts). `lines` rejects if it exits non-zero. */
export function startChild(entry: string, command: object): Child {
  const proc = spawn(process.execPath, [entry, JSON.stringify(command)], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  proc.stderr!.on('data', (d) => (stderr += d))
  let onReady!: () => void
  const ready = new Promise<void>((r) => (onReady = r))
  const collected: unknown[] = []
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    const value = JSON.parse(line) as unknown
    if (value === 'ready') onReady()
    else collected.push(value)
  })
  const lines = new Promise<unknown[]>((resolve, reject) => {
    proc.on('close', (code, signal) =>
      code === 0 ? resolve(collected) : reject(new Error(`child exited ${code ?? signal}: ${stderr}`))
    )
  })
  lines.catch(() => {})
  return { proc, ready, lines }
}
