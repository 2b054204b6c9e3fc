import { mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  activeSettingsWatches,
  changedSettingsFiles,
  readSettingsTexts,
  watchSettingsFiles,
  type SettingsWatch
} from './settingsWatch'

// The watch under a running workspace's settings (docs/permissions.md#reloading-while-it-runs), on real
// files: every change is awaited as an event, never timed.

let root: string
let watch: SettingsWatch | undefined

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-settingswatch-')))
})
afterEach(async () => {
  await watch?.close()
  watch = undefined
  rmSync(root, { recursive: true, force: true })
})

/**
 * Starts a watch of `files`. `until(file, text)` resolves at the first `onChange` that names `file`
 * while it reads `text` (a late event of an earlier step cannot stand in for it); `reported` holds
 * every file each `onChange` named.
 */
async function follow(
  files: string[]
): Promise<{ until(file: string, text: string): Promise<void>; reported: string[][] }> {
  const reported: string[][] = []
  let waiting: ((changed: string[]) => void) | undefined
  watch = watchSettingsFiles({
    files,
    debounceMs: 50,
    onChange: (changed) => {
      reported.push(changed)
      waiting?.(changed)
    }
  })
  await watch.ready
  return {
    until: (file, text) =>
      new Promise<void>((resolve) => {
        waiting = (changed) => {
          if (changed.includes(file) && readFileSync(file, 'utf8') === text) resolve()
        }
      }),
    reported
  }
}

describe('the settings files watch', () => {
  it('sees a file created in a folder that did not exist, a write in place and an atomic rename over it', async () => {
    const file = join(root, 'project', '.swarmdesk', 'settings.local.json')
    mkdirSync(join(root, 'project'))
    const w = await follow([file])

    let changed = w.until(file, '{}')
    mkdirSync(join(root, 'project', '.swarmdesk'))
    writeFileSync(file, '{}')
    await changed

    changed = w.until(file, '{"permissions":{"deny":["Bash"]}}')
    writeFileSync(file, '{"permissions":{"deny":["Bash"]}}')
    await changed

    changed = w.until(file, '{"permissions":{"deny":["Read"]}}')
    writeFileSync(`${file}.tmp`, '{"permissions":{"deny":["Read"]}}')
    renameSync(`${file}.tmp`, file)
    await changed
    expect(w.reported.flat().every((f) => f === file)).toBe(true)
  })

  it('leaves out the other files of the folder', async () => {
    const marker = join(root, 'marker.json')
    const w = await follow([join(root, 'settings.json'), marker])
    // the unrelated writes come first: an event of theirs would be named before the marker's
    writeFileSync(join(root, 'notes.txt'), 'x')
    mkdirSync(join(root, 'sub'))
    writeFileSync(join(root, 'sub', 'settings.json'), '{}')
    const changed = w.until(marker, '{}')
    writeFileSync(marker, '{}')
    await changed
    expect(w.reported.flat()).toEqual([marker])
  })

  it('counts as closed once closed, and closing twice is harmless', async () => {
    const before = activeSettingsWatches()
    await follow([join(root, 'settings.json')])
    expect(activeSettingsWatches()).toBe(before + 1)
    await watch!.close()
    await watch!.close()
    expect(activeSettingsWatches()).toBe(before)
  })

  it('compares texts: a created, changed or deleted file differs, one written with the same text does not', async () => {
    const a = join(root, 'a.json')
    const b = join(root, 'b.json')
    const c = join(root, 'c.json')
    writeFileSync(a, '{}')
    writeFileSync(b, '{}')
    const before = await readSettingsTexts([a, b, c])
    expect(before.get(c)).toBeUndefined()
    writeFileSync(a, '{}')
    rmSync(b)
    writeFileSync(c, '{}')
    expect(changedSettingsFiles(before, await readSettingsTexts([a, b, c]))).toEqual([b, c])
  })
})
