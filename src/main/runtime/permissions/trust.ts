import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { TrustFileError } from './errors'
import { canonicalPath } from './paths'

/**
 * Project trust (docs/permissions.md#permissions): `<home>/trusted.json` lists the workspaces a person trusted, so their
 * own settings may carry hooks, env, a base URL and `bypassPermissions`.
 */
export const TrustFileSchema = z.object({
  schemaVersion: z.literal(1),
  workspaces: z.array(z.object({ path: z.string(), trustedAt: z.string() }))
})
export type TrustFile = z.infer<typeof TrustFileSchema>

/** The trust file of the data directory `home`: `<home>/trusted.json` (docs/permissions.md#permissions). */
export const trustPath = (home: string): string => path.join(home, 'trusted.json')

/** The trust file, or an empty one when missing. @throws TrustFileError when it is not valid. */
async function readTrust(home: string): Promise<TrustFile> {
  let text: string
  try {
    text = await readFile(trustPath(home), 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { schemaVersion: 1, workspaces: [] }
    throw e
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new TrustFileError(`${trustPath(home)}: not JSON; fix or delete it (workspaces will need trusting again)`)
  }
  const result = TrustFileSchema.safeParse(parsed)
  if (!result.success)
    throw new TrustFileError(
      `${trustPath(home)}: not a trust file (${result.error.issues[0]?.message}); fix or delete it`
    )
  return result.data
}

/**
 * Whether `workspace` (compared canonically, exactly: trusting a parent does not trust its
 * children) is trusted. A trust file that does not parse trusts nothing (fails closed).
 */
export async function isWorkspaceTrusted(home: string, workspace: string): Promise<boolean> {
  return (await trustStatus(home, workspace)).trusted
}

/** Like {@link isWorkspaceTrusted}, with the reason when the trust file could not be read (for a warning). */
export async function trustStatus(home: string, workspace: string): Promise<{ trusted: boolean; problem?: string }> {
  const target = await canonicalPath(workspace, '/')
  try {
    const trust = await readTrust(home)
    return { trusted: trust.workspaces.some((w) => w.path === target) }
  } catch (e) {
    if (e instanceof TrustFileError) return { trusted: false, problem: e.message }
    throw e
  }
}

/**
 * Record `workspace` as trusted; written to a temp file then renamed, so a crash never leaves a
 * half-written file. @throws TrustFileError when the existing file is invalid (never overwritten).
 */
export async function trustWorkspace(home: string, workspace: string, now: Date = new Date()): Promise<void> {
  const target = await canonicalPath(workspace, '/')
  const trust = await readTrust(home)
  if (trust.workspaces.some((w) => w.path === target)) return
  trust.workspaces.push({ path: target, trustedAt: now.toISOString() })
  await writeTrust(home, trust)
}

/**
 * Removes `workspace` from the trusted workspaces (a person revoking trust in Settings); nothing
 * happens when it was not trusted. @throws TrustFileError when the existing file is invalid (never overwritten).
 */
export async function untrustWorkspace(home: string, workspace: string): Promise<void> {
  const target = await canonicalPath(workspace, '/')
  const trust = await readTrust(home)
  const kept = trust.workspaces.filter((w) => w.path !== target)
  if (kept.length === trust.workspaces.length) return
  await writeTrust(home, { ...trust, workspaces: kept })
}

/** Writes the trust file to a temp name and renames it into place. */
async function writeTrust(home: string, trust: TrustFile): Promise<void> {
  await mkdir(home, { recursive: true })
  const tmp = `${trustPath(home)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(tmp, JSON.stringify(trust, null, 2) + '\n')
  await rename(tmp, trustPath(home))
}
