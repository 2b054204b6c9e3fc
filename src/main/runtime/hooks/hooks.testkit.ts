import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach } from 'vitest'

/**
 * Test support: temp directories removed after each test, executable bash scripts, settings
 * sources, and a /proc scan to prove processes are gone.
 */
export function useTempDirs(): () => Promise<string> {
  const dirs: string[] = []
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
  })
  return async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'swarmdesk-hooks-'))
    dirs.push(dir)
    return dir
  }
}

/** Write `body` as an executable bash script `dir/name`; returns its absolute path. */
export async function script(dir: string, name: string, body: string): Promise<string> {
  const file = path.join(dir, name)
  await writeFile(file, `#!/usr/bin/env bash\n${body}\n`)
  await chmod(file, 0o755)
  return file
}

/** A `hooks` block with one command under `event`. */
export function oneHook(
  event: string,
  command: string,
  extra: { matcher?: string; timeout?: number } = {}
): Record<string, unknown> {
  const { matcher, timeout } = extra
  return {
    [event]: [
      {
        ...(matcher !== undefined ? { matcher } : {}),
        hooks: [{ type: 'command', command, ...(timeout !== undefined ? { timeout } : {}) }]
      }
    ]
  }
}

/** Pids whose command line is exactly `cmdline`, words joined by spaces (zombies have an empty one and are not listed). */
export async function pidsWithCmdline(cmdline: string): Promise<number[]> {
  const found: number[] = []
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const words = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).split('\0').filter((w) => w !== '')
      if (words.join(' ') === cmdline) found.push(Number(entry))
    } catch {
      // The process ended while we looked.
    }
  }
  return found
}

/** Poll `check` every 20 ms until it is true or `ms` pass; returns its last answer. */
export async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms
  for (;;) {
    if (await check()) return true
    if (Date.now() > until) return false
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** A `sleep` command line no other process on the machine has, to find ours in /proc. */
export function uniqueSleep(): string {
  return `sleep 300.${Math.floor(Math.random() * 1e9)}`
}

/** Lines of a JSONL file the hooks appended to ([] when it does not exist). */
export async function readJsonLines(file: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(file, 'utf8').catch(() => '')
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
}
