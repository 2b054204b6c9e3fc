/**
 * The data-directory check on real folders: a full disk (the write seam of diskWrites.ts, as the
 * machine has no small disk to fill) and a file in the path each give a DataDirectoryError naming
 * the folder, the reason and what to do; a writable home passes and keeps no probe file.
 */
import { RunUsageError } from '../base'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { workspaceSlug } from './paths'
import { DataDirectoryError, ensureWritableDataDirectory } from './dataDirectory'
import { simulateWriteFaults } from '../locks/diskWrites'

let home: string
let endFaults: (() => void) | undefined
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'swarmdesk-datadir-'))
})
afterEach(() => {
  endFaults?.()
  endFaults = undefined
  rmSync(home, { recursive: true, force: true })
})

describe('the data-directory check', () => {
  it('creates the home and the workspace folder when missing and leaves no probe file behind', () => {
    const fresh = join(home, 'new-home')
    ensureWritableDataDirectory(fresh, '/some/work')
    expect(readdirSync(fresh)).toEqual(['projects'])
    expect(readdirSync(join(fresh, 'projects'))).toEqual([workspaceSlug('/some/work')])
    expect(readdirSync(join(fresh, 'projects', workspaceSlug('/some/work')))).toEqual([])
  })

  it('reports a full disk as ENOSPC naming the folder and what to do, as bad input', () => {
    endFaults = simulateWriteFaults({ matches: (p) => p.startsWith(home) })
    let error: unknown
    try {
      ensureWritableDataDirectory(home)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(DataDirectoryError)
    expect(error).toBeInstanceOf(RunUsageError)
    expect(error).toMatchObject({ path: home, code: 'ENOSPC', name: 'DataDirectoryError' })
    expect((error as Error).message).toBe(
      `Cannot write Swarmdesk's data directory ${home}: no space left on the device (ENOSPC). Free some space there, or point SWARMDESK_HOME at a folder on another disk.`
    )
    endFaults()
    expect(readdirSync(home)).toEqual([])
  })

  it("names the team folder when only it cannot be written (a teammate's check)", () => {
    writeFileSync(join(home, 'teams'), 'a file')
    const team = join(home, 'teams', 'crew')
    expect(() => ensureWritableDataDirectory(home, undefined, [team])).toThrow(
      `Cannot write Swarmdesk's data directory ${team}: part of the path is a file, not a folder (ENOTDIR).`
    )
  })
})
