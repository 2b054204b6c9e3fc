import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadPermissionSettings } from '../permissions'
import { modeSwitches } from './setup'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'swarmdesk-switches-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function settingsWith(data: object) {
  const file = join(dir, 'settings.json')
  writeFileSync(file, JSON.stringify(data))
  return loadPermissionSettings({ cwd: dir, home: join(dir, 'home'), extraSettingsFiles: [file] })
}

describe('fork and coordinator switches', () => {
  it('come from the flags or, without them, from settings; coordinator mode wins over forks', async () => {
    expect(modeSwitches({}, await settingsWith({}))).toEqual({ forkEnabled: false, coordinator: false })
    expect(modeSwitches({}, await settingsWith({ forkSubagents: true }))).toEqual({
      forkEnabled: true,
      coordinator: false
    })
    expect(modeSwitches({ fork: true }, await settingsWith({ coordinatorMode: true }))).toEqual({
      forkEnabled: false,
      coordinator: true
    })
    expect(modeSwitches({ coordinator: true }, await settingsWith({}))).toEqual({
      forkEnabled: false,
      coordinator: true
    })
  })

  it('refuses a switch that is not a boolean, naming the field', async () => {
    await expect(settingsWith({ coordinatorMode: 'yes' })).rejects.toThrow(/coordinatorMode/)
  })
})
