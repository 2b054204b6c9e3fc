import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import { ofType, runCli, useTempWorkspace } from './cli.testkit'

// docs/hooks.md#hooks: a TeammateIdle hook exiting 2 keeps a teammate working — but a shutdown request
// always wins over it. The hook comes from the leader's --settings file, which teammates share.

const ws = useTempWorkspace()

const SCENARIO = `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: hooked } } ]
    - tools: [ { name: Agent, input: { name: gus, backend: worker, mode: bypassPermissions, description: "checker", prompt: "Start the long check." } } ]
    - text: "gus is checking."
    - when: "gus is busy"
      tools: [ { name: SendMessage, input: { to: gus, message: { type: shutdown_request, reason: "Stop after this check." } } } ]
    - when: 'type="shutdown_approved"'
      tools: [ { name: TeamDelete, input: {} } ]
${'    - { text: "Noted." }\n'.repeat(10)}
  gus:
    - when: "Start the long check"
      tools:
        - { name: SendMessage, input: { to: team-lead, message: "gus is busy", summary: "busy" } }
        - { name: Bash, input: { command: "sleep 2" } }
    - text: "Checked."
    - when: 'type="shutdown_request"'
      text: "Leaving."
    - when: "keep checking"
      text: "Kept checking because the hook said so."
${'    - { text: "Done." }\n'.repeat(4)}`

describe('the TeammateIdle hook and a shutdown request (docs/hooks.md#hooks)', () => {
  it('a hook that always exits 2 does not keep a teammate from a waiting shutdown request', async () => {
    const { home, work } = ws
    const log = join(home, 'idle-hook.log')
    const settings = join(home, 'hooks.json')
    const command = `echo ran >> ${log}; echo "keep checking" >&2; exit 2`
    writeFileSync(settings, JSON.stringify({ hooks: { TeammateIdle: [{ hooks: [{ type: 'command', command }] }] } }))
    const scenario = join(home, 'hook.yaml')
    writeFileSync(scenario, SCENARIO)
    const run = await runCli(
      [
        'run',
        '--cwd',
        work,
        '--scenario',
        scenario,
        '--settings',
        settings,
        '--approve',
        'all',
        '--json',
        'Check with gus'
      ],
      { env: { SWARMDESK_HOME: home } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const gus = (e: RuntimeEvent) => e.agentId === 'gus@hooked'
    // the hook ran once, when the busy turn ended with the request already waiting, and was overruled
    expect(existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []).toEqual(['ran'])
    expect(
      ofType(run.events, 'assistant_text')
        .filter(gus)
        .map((e) => e.text)
    ).toEqual(['Checked.', 'Leaving.'])
    expect(ofType(run.events, 'message_sent').filter((e) => e.kind === 'shutdown_approved')).toEqual([
      expect.objectContaining({ from: 'gus' })
    ])
    expect(ofType(run.events, 'agent_stopped').find(gus)).toMatchObject({ status: 'exited' })
    expect(
      ofType(run.events, 'tool_result').find(
        (e) => e.agentId === 'team-lead' && e.output.includes("Team 'hooked' deleted")
      )
    ).toBeDefined()
  }, 60_000)
})
