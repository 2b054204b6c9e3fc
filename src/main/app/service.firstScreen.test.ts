import { execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { WorkspaceSnapshot } from '../../shared/ipc'
import { WorkspaceService } from './service'

// Issue 19 item 13: the first screen offers the scripted scenario's suggested prompt until the
// leader's conversation has begun; the snapshot carries both.

let home: string
let work: string
let service: WorkspaceService | undefined
beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-first-home-')))
  work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-first-work-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
})
afterEach(async () => {
  await service?.dispose()
  service = undefined
  rmSync(home, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

async function start(yaml: string): Promise<WorkspaceService> {
  const file = join(home, 's.yaml')
  writeFileSync(file, yaml)
  service = await WorkspaceService.start({ cwd: work, home, scenario: file, env: {}, mode: 'bypassPermissions' })
  return service
}
const snapshot = async (s: WorkspaceService) => (await s.handle('workspace.snapshot', {})) as WorkspaceSnapshot

it("carries the scenario's suggested prompt, and whether the leader's conversation has begun", async () => {
  const s = await start('prompt: "Say hello to the team"\nagents:\n  team-lead:\n    - text: "Hello, team."\n')
  expect(await snapshot(s)).toMatchObject({
    scripted: true,
    suggestedPrompt: 'Say hello to the team',
    leaderStarted: false
  })
  await s.handle('leader.prompt', { text: 'Say hello to the team' })
  await s.whenIdle()
  expect(await snapshot(s)).toMatchObject({ suggestedPrompt: 'Say hello to the team', leaderStarted: true })
})

it('has no suggested prompt for a scenario that names none', async () => {
  const s = await start('agents:\n  team-lead:\n    - text: "Hello."\n')
  const snap = await snapshot(s)
  expect(snap.suggestedPrompt).toBeUndefined()
  expect(snap.leaderStarted).toBe(false)
})
