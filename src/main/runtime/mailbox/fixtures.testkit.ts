import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { bundleEntry } from '../../testkit/bundleEntry.testkit'

const REPO = resolve(__dirname, '../../../..')

/** A fresh SWARMDESK_HOME in the OS temp dir, and its removal. */
export function tempHome(): { home: string; cleanup: () => void } {
  const home = mkdtempSync(join(tmpdir(), 'swarmdesk-mailbox-'))
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) }
}

/** Bundles the writer of `writer.ts` into `out/test/` (unique per caller) and returns its path. */
export async function bundledWriter(tag: string): Promise<string> {
  return bundleEntry(
    join(__dirname, 'writer.testkit.ts'),
    join(REPO, 'out', 'test', `mailbox-writer-${tag}-${process.pid}.mjs`)
  )
}
