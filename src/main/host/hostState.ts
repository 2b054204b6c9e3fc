import { chmod, mkdir, readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import writeFileAtomic from 'write-file-atomic'
import { z } from 'zod'
import { newToken } from './auth'

/**
 * What `swarmdesk serve` keeps across restarts so an open tab survives one: the host token of a
 * data directory, and the port each workspace was last served on. A browser keeps a page's
 * storage (layout, hidden panes, panel widths) per origin, and its socket reconnects to the same
 * address with the same token; a new port or token at every start left the tab reconnecting
 * forever and the remembered layout behind. Both files live in `<home>` (SWARMDESK_HOME) and are
 * written atomically (write-file-atomic: temp file + rename).
 */

/** `<home>/web-host-token`: 64 hex characters and a newline, readable only by its owner (0600). */
export function hostTokenPath(home: string): string {
  return join(home, 'web-host-token')
}

/** `<home>/web-host.json`: `{schemaVersion: 1, ports: {<canonical folder>: <port>}}`. */
export function hostPortsPath(home: string): string {
  return join(home, 'web-host.json')
}

const TOKEN_PATTERN = /^[0-9a-f]{64}$/

/**
 * The host token of `home`: the one a previous `serve` wrote, or a new one (32 random bytes as
 * hex) written now with mode 0600. A file that is not a token (edited by hand, torn by an old
 * writer) is replaced by a new token, which only means open tabs must use the newly printed URL.
 * The mode is enforced on every read, so a token file that became readable by others is closed
 * again before it is used.
 * @throws the file system's error when `<home>` cannot be written (serve checks that earlier).
 */
export async function hostToken(home: string): Promise<string> {
  const file = hostTokenPath(home)
  const existing = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw error
    }
  )
  if (existing !== undefined && TOKEN_PATTERN.test(existing)) {
    await chmod(file, 0o600)
    return existing
  }
  const token = newToken()
  await mkdir(home, { recursive: true })
  await writeFileAtomic(file, `${token}\n`, { encoding: 'utf8', mode: 0o600 })
  return token
}

const PortsFileSchema = z.object({
  schemaVersion: z.literal(1),
  ports: z.record(z.string(), z.number().int().min(1).max(65535))
})

/** The ports file's map; `corrupt` when a file is there but is not a ports file (it is a cache: losing it only costs a new port). */
async function readPorts(home: string): Promise<{ ports: Record<string, number>; corrupt: boolean }> {
  const text = await readFile(hostPortsPath(home), 'utf8').catch(() => undefined)
  if (text === undefined) return { ports: {}, corrupt: false }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { ports: {}, corrupt: true }
  }
  const parsed = PortsFileSchema.safeParse(json)
  return parsed.success ? { ports: parsed.data.ports, corrupt: false } : { ports: {}, corrupt: true }
}

/** The port `folder` (canonical) was last served on from `home`, or undefined. */
export async function rememberedPort(home: string, folder: string): Promise<number | undefined> {
  return (await readPorts(home)).ports[folder]
}

/**
 * Records that `folder` is served on `port` now. Re-reads the file first so two hosts of one home
 * lose at most a concurrent change, never the file; a file that is not a ports file is moved
 * aside to `web-host.json.corrupt`.
 */
export async function rememberPort(home: string, folder: string, port: number): Promise<void> {
  const file = hostPortsPath(home)
  const { ports, corrupt } = await readPorts(home)
  if (corrupt) await rename(file, `${file}.corrupt`).catch(() => undefined)
  if (ports[folder] === port) return
  ports[folder] = port
  await mkdir(home, { recursive: true })
  await writeFileAtomic(file, `${JSON.stringify({ schemaVersion: 1, ports }, null, 2)}\n`, { encoding: 'utf8' })
}
