import { mkdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ClaudeTeamView } from '../../../shared/ipc'
import { installClaudeCode, scratch } from '../../runtime/scripted/claudeCode.testkit'
import { startInteractiveClaude, type InteractiveClaude } from '../../runtime/scripted/claudeInteractive.testkit'
import { parseScenario } from '../../runtime/scripted/scenario'
import { startScriptedServer, type ScriptedServer } from '../../runtime/scripted/server'
import { ClaudeTeamsControl } from './control'

/**
 * The real Claude Code 2.1.197, interactive in a pty with agent teams on, against the scripted
 * model (docs/claude-code-teams.md): its scripted leader creates two tasks and spawns two
 * teammates (bob in plan mode); the workspace shows the team, its board, its mailbox cards and
 * the teammates' transcripts, answers bob's plan, assigns a task to alice by drag (who then works
 * on it, with a subagent nested under her), messages the leader (who then asks bob to shut down) and shuts alice down itself.
 */
const install = await installClaudeCode()
if (install.skip) console.warn(`Claude Code team tests skipped: ${install.skip}`)

const think = (n: number) => Array.from({ length: n }, () => ({ text: 'Noted.' }))

const SCENARIO = {
  name: 'claude-code-team',
  agents: {
    'team-lead': [
      {
        tools: [
          { name: 'TaskCreate', input: { subject: 'Write the parser', description: 'Parse the config files' } },
          { name: 'TaskCreate', input: { subject: 'Review the parser', description: 'Review the parser' } }
        ]
      },
      {
        tools: [
          {
            name: 'Agent',
            input: { description: 'parser writer', name: 'alice', prompt: 'Wait for a task assignment.' }
          },
          { name: 'Agent', input: { description: 'reviewer', name: 'bob', mode: 'plan', prompt: 'Plan the review.' } }
        ]
      },
      { text: 'The team is up.' },
      {
        when: 'Please shut bob down',
        tools: [
          { name: 'SendMessage', input: { to: 'bob', message: { type: 'shutdown_request', reason: 'Review planned' } } }
        ]
      },
      ...think(30)
    ],
    alice: [
      { text: 'Waiting for an assignment.' },
      { when: 'Write the parser', tools: [{ name: 'TaskUpdate', input: { taskId: '1', status: 'in_progress' } }] },
      {
        tools: [
          {
            name: 'Agent',
            input: { description: 'parser check', prompt: 'Check the parser.', subagent_type: 'general-purpose' }
          }
        ]
      },
      { tools: [{ name: 'TaskUpdate', input: { taskId: '1', status: 'completed' } }] },
      { text: 'Parser written.' },
      {
        when: 'shutdown_request',
        tools: [
          {
            name: 'SendMessage',
            input: {
              to: 'team-lead',
              message: { type: 'shutdown_response', request_id: '{{request_id}}', approve: true }
            }
          }
        ]
      },
      ...think(10)
    ],
    bob: [
      { tools: [{ name: 'ExitPlanMode', input: { plan: '1. Read the parser\n2. Comment on it' } }] },
      { text: 'Review planned.' },
      {
        when: 'shutdown_request',
        tools: [
          {
            name: 'SendMessage',
            input: {
              to: 'team-lead',
              message: { type: 'shutdown_response', request_id: '{{request_id}}', approve: true }
            }
          }
        ]
      },
      ...think(10)
    ],
    'parser-check': [{ text: 'The parser looks right.' }]
  }
}

describe.skipIf(install.skip !== undefined)(
  `Claude Code's agent team in the workspace${install.skip ? ` (skipped: ${install.skip})` : ''}`,
  () => {
    let server: ScriptedServer
    let dir: string
    let claude: InteractiveClaude | undefined
    let control: ClaudeTeamsControl | undefined

    beforeAll(async () => {
      server = await startScriptedServer({ scenario: parseScenario(JSON.stringify(SCENARIO), 'team.json') })
      dir = await scratch('swarmdesk-cc-team-')
      await mkdir(join(dir, 'work'))
    })
    afterAll(async () => {
      control?.dispose()
      await claude?.kill()
      await server?.close()
      if (dir) await rm(dir, { recursive: true, force: true })
    })

    /** Waits until the workspace's view of the one team satisfies `check`; the failure shows the view and claude's screen. */
    async function until(what: string, check: (team: ClaudeTeamView) => boolean, ms = 60_000): Promise<ClaudeTeamView> {
      const deadline = Date.now() + ms
      for (;;) {
        const team = (await control!.list()).teams[0]
        if (team && check(team)) return team
        if (Date.now() > deadline)
          throw new Error(
            `${what}: not reached in ${ms} ms.\nview: ${JSON.stringify(team, null, 1)}\nscreen:\n${claude!.screen()}`
          )
        await new Promise((r) => setTimeout(r, 200))
      }
    }
    const member = (t: ClaudeTeamView, name: string) => t.members.find((m) => m.name === name)
    const kinds = (t: ClaudeTeamView) => t.messages.map((m) => `${m.from}>${m.to}:${m.kind}`)

    it('shows the team, its board, cards and transcripts, and what it writes back is acted on', async () => {
      claude = await startInteractiveClaude(install.bin!, {
        baseUrl: server.url,
        cwd: join(dir, 'work'),
        home: join(dir, 'home'),
        teams: true,
        args: ['--dangerously-skip-permissions']
      })
      control = new ClaudeTeamsControl(claude.configDir, 200)
      await claude.waitForScreen(/[>❯]\s/, 30_000)
      await claude.submit('Start the team')

      let team = await until(
        'two teammates and two tasks',
        (t) => !!member(t, 'alice') && !!member(t, 'bob') && t.tasks.length === 2
      )
      const record = await claude.sessionRecord()
      expect(team.name).toBe(`session-${record!.sessionId.slice(0, 8)}`)
      expect(team.status).toBe('live')
      expect(team.tasks.map((t) => [t.id, t.subject, t.status])).toEqual([
        ['1', 'Write the parser', 'pending'],
        ['2', 'Review the parser', 'pending']
      ])
      expect(team.unreadable).toEqual([])
      expect(member(team, 'bob')).toMatchObject({ status: 'active', planModeRequired: true })
      expect(member(team, 'alice')).toMatchObject({ status: 'active', planModeRequired: false })

      // bob asks for plan approval; the workspace answers it in the leader's name
      team = await until('bob’s plan request card', (t) => t.messages.some((m) => m.kind === 'plan_approval_request'))
      const ask = team.messages.find((m) => m.kind === 'plan_approval_request')!
      expect(ask).toMatchObject({ from: 'bob', to: 'team-lead', summary: 'Plan for approval: 1. Read the parser' })
      const requestId = (JSON.parse(ask.text) as { requestId: string }).requestId
      const bobAsked = () => server.requests().filter((r) => r.agentName === 'bob').length
      const before = bobAsked()
      await control.answerPlan(team.name, 'bob', requestId, true)
      await until('bob goes on after the approval', () => bobAsked() > before)
      expect(
        kinds(await until('the answer recorded', (t) => t.messages.some((m) => m.kind === 'plan_approval_response')))
      ).toContain('team-lead>bob:plan_approval_response')

      // drag-to-assign: the owner in the task file, a task_assignment in alice's inbox; she works on it
      const assigned = await control.assign(team.name, '1', 'alice')
      expect(assigned.owner).toBe('alice')
      team = await until('alice completes task 1', (t) => t.tasks.find((k) => k.id === '1')?.status === 'completed')
      expect(kinds(team)).toContain('team-lead>alice:task_assignment')
      expect(team.tasks.find((k) => k.id === '1')!.owner).toBe('alice')
      const raw = JSON.parse(await readFile(join(claude.configDir, 'tasks', team.name, '1.json'), 'utf8')) as {
        owner: string
      }
      expect(raw.owner).toBe('alice')

      // a person's Message to the leader, who then asks bob to shut down; bob approves and leaves the config
      await control.message(team.name, 'team-lead', 'Please shut bob down')
      team = await until('bob shut down', (t) => member(t, 'bob')?.status === 'gone')
      expect(kinds(team)).toEqual(
        expect.arrayContaining(['team-lead>bob:shutdown_request', 'bob>team-lead:shutdown_approved'])
      )

      // Shut down from the workspace: alice approves
      await control.shutdown(team.name, 'alice', 'All done')
      team = await until('alice shut down', (t) => member(t, 'alice')?.status === 'gone')
      expect(kinds(team)).toContain('alice>team-lead:shutdown_approved')
      // Claude Code removed every message it delivered; the cards stay
      expect(kinds(team)).toEqual(
        expect.arrayContaining(['alice>team-lead:idle_notification', 'team-lead>team-lead:plain'])
      )
      expect(team.messages.find((m) => m.kind === 'task_assignment')!.delivered).toBe(true)

      // each teammate's pane from its transcript
      const pane = await control.transcript(team.name, { name: 'alice' })
      expect(pane.text).toContain('Parser written.')
      expect(pane.text).toContain('● TaskUpdate(1)')
      expect((await control.transcript(team.name, { name: 'bob' })).text).toContain('● ExitPlanMode')
      // alice's subagent, nested under her: its Agent call is in her transcript
      const check = team.subagents.find((a) => a.description === 'parser check')
      expect(check).toMatchObject({ parent: 'alice', agentType: 'general-purpose' })
      expect((await control.transcript(team.name, { subagent: check!.agentId })).text).toContain(
        'The parser looks right.'
      )
      expect(team.unreadable).toEqual([])
    }, 240_000)
  }
)
