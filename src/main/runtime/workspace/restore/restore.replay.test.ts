import { execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WorkspaceService } from '../service'

/**
 * A pane restored twice: what the first restart wrote after the restored output to end what the
 * dead run left open (restoredOutputEnd, panes.ts) is part of the pane's journal too, so the second
 * restart shows the session in between as the person saw it, not drawn on a dead program's screen.
 */

let home: string
let work: string
let service: WorkspaceService | undefined

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-replay-home-')))
  work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-replay-work-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
})
afterEach(async () => {
  await service?.dispose()
  service = undefined
  rmSync(home, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

// the first run's command leaves the pane on a full-screen program's screen, mouse tracking on, mid-line
const SCENARIO = `agents:
  team-lead:
    - when: "first run"
      tools: [{ name: Bash, input: { command: "printf 'first-run-line\\\\n\\\\033[?1049h\\\\033[?1000h\\\\033[31mfull-screen-program'" } }]
    - when: "full-screen-program"
      text: "First run done."
    - when: "second run"
      tools: [{ name: Bash, input: { command: "echo second-run-line" } }]
    - when: "second-run-line"
      text: "Second run done."
`

async function open(file: string): Promise<WorkspaceService> {
  service = await WorkspaceService.start({ cwd: work, home, scenario: file, env: {}, mode: 'bypassPermissions' })
  return service
}
const scrollback = async (s: WorkspaceService) => ((await s.handle('pane.scrollback', { agentId: 'team-lead' })) as { data: string }).data

describe('A pane restored twice', () => {
  it('shows the session between the two restarts below the scrollback, not on the screen of the program the first run left', async () => {
    const file = join(home, 's.yaml')
    writeFileSync(file, SCENARIO)
    const first = await open(file)
    await first.handle('leader.prompt', { text: 'first run' })
    await first.whenIdle()
    await first.dispose()
    const second = await open(file)
    await second.handle('leader.prompt', { text: 'second run' })
    await second.whenIdle()
    const seen = await scrollback(second)
    await second.dispose()
    const third = await open(file)
    const replayed = await scrollback(third)
    for (const data of [seen, replayed]) {
      // the serialized pane leaves the normal screen only for a full-screen program still running
      expect(data).not.toContain('\x1b[?1049h')
      expect(data).toContain('first-run-line')
      expect(data.indexOf('second-run-line')).toBeGreaterThan(data.indexOf('first-run-line'))
      expect(data).toContain('Second run done.')
    }
  })
})
