import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import { noteActivity, type MemberActivity } from '../../shared/memberActivity'
import { createPaneRenderer } from '../app/paneText'
import { ofType, runCli, useTempWorkspace } from './cli.testkit'

// A teammate's running command in its pane (docs/ui.md#the-workspace-ui: a pane shows the PTY output of its shell),
// live, on both backends; and that output is activity, so the dashboard never marks it stuck.

const ws = useTempWorkspace()

/** Ticks printed by the command, and the pause between two, ms: the command runs ~3 s. */
const TICKS = 6
const TICK_MS = 500

const scenario = (backend: 'worker' | 'process'): string => `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: out } } ]
    - tools: [ { name: Agent, input: { name: tam, backend: ${backend}, mode: bypassPermissions, description: "ticker", prompt: "Run the ticker." } } ]
    - text: "tam is at work."
${'    - { text: "Noted." }\n'.repeat(6)}
  tam:
    - tools: [ { name: Bash, input: { command: "for i in $(seq 1 ${TICKS}); do echo tick-$i; sleep ${TICK_MS / 1000}; done" } } ]
    - text: "Ticked."
${'    - { text: "Done." }\n'.repeat(4)}
`

describe.each(['process', 'worker'] as const)("a %s teammate's running command", (backend) => {
  it('shows in its pane while it runs, and keeps the teammate active all along', async () => {
    const file = join(ws.home, 'ticker.yaml')
    writeFileSync(file, scenario(backend))
    const run = await runCli(
      ['run', '--cwd', ws.work, '--scenario', file, '--approve', 'all', '--json', 'Have tam tick'],
      { env: { SWARMDESK_HOME: ws.home } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const tam = (e: RuntimeEvent) => e.agentId === 'tam@out'
    const call = ofType(run.events, 'tool_call').find((e) => tam(e) && e.name === 'Bash')!
    const result = ofType(run.events, 'tool_result').find((e) => tam(e) && e.toolUseId === call.toolUseId)!
    expect(result).toMatchObject({ isError: false })
    // the pane as the workspace renders it from the stream, up to the moment the command ended
    const render = createPaneRenderer({ scripted: true })
    let pane = ''
    const seen: number[] = []
    for (const event of run.events) {
      if (event.seq >= result.seq) break
      const out = render(event)
      if (out?.[0] !== 'tam@out') continue
      pane += out[1]
      for (let i = 1; i <= TICKS; i++) if (!seen.includes(i) && pane.includes(`tick-${i}`)) seen.push(i)
    }
    // every tick reached the pane, in order, before the command's result did
    expect(seen).toEqual(Array.from({ length: TICKS }, (_, i) => i + 1))
    // and each came at its time, not all at the end: from its first tick to its result, the
    // dashboard's activity (the same reducer as the UI's) never went quiet for long
    const streamed = (e: RuntimeEvent): string | undefined =>
      e.type === 'terminal_output' || e.type === 'tool_output' ? e.data : undefined
    const firstTick = run.events.find((e) => tam(e) && streamed(e)?.includes('tick-1'))!
    let activity: MemberActivity | undefined
    let longestSilence = 0
    for (const event of run.events.filter((e) => tam(e) && e.seq >= firstTick.seq && e.seq <= result.seq)) {
      if (activity) longestSilence = Math.max(longestSilence, Date.parse(event.time) - Date.parse(activity.lastEventAt))
      activity = noteActivity(activity, event)
    }
    const printing = Date.parse(result.time) - Date.parse(firstTick.time)
    expect(printing).toBeGreaterThanOrEqual((TICKS - 2) * TICK_MS)
    expect(longestSilence).toBeLessThan(3 * TICK_MS)
  }, 90_000)
})
