import { mkdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installClaudeCode, scratch } from '../../runtime/scripted/claudeCode.testkit'
import { startInteractiveClaude, type InteractiveClaude } from '../../runtime/scripted/claudeInteractive.testkit'
import { parseScenario } from '../../runtime/scripted/scenario'
import { startScriptedServer, type ScriptedServer } from '../../runtime/scripted/server'
import { ClaudeTeamsControl } from './control'
import { ClaudeInboxSchema } from './formats'

/**
 * The real Claude Code 2.1.197 and Swarmdesk writing one teammate's inbox at the same moment
 * (docs/claude-code-teams.md#writing-back): the scripted leader sends alice a burst of messages
 * with SendMessage while the workspace writes its own burst to her inbox under Claude Code's
 * locks. Every message of both reaches alice's model requests, and the inbox always parses.
 */
const install = await installClaudeCode()
if (install.skip) console.warn(`Claude Code inbox burst test skipped: ${install.skip}`)

const N = 8
const think = (n: number) => Array.from({ length: n }, () => ({ text: 'Noted.' }))
const SCENARIO = {
  name: 'claude-code-inbox-burst',
  agents: {
    'team-lead': [
      { tools: [{ name: 'Agent', input: { description: 'listener', name: 'alice', prompt: 'Wait for messages.' } }] },
      { text: 'alice is up.' },
      {
        when: 'Burst now',
        tools: Array.from({ length: N }, (_, i) => ({
          name: 'SendMessage',
          input: { to: 'alice', summary: `cc ${i}`, message: `from claude cc-${i}` }
        }))
      },
      ...think(80)
    ],
    alice: think(120)
  }
}

describe.skipIf(install.skip !== undefined)(
  `Claude Code and Swarmdesk writing one inbox at once${install.skip ? ` (skipped: ${install.skip})` : ''}`,
  () => {
    let server: ScriptedServer
    let dir: string
    let claude: InteractiveClaude | undefined
    let control: ClaudeTeamsControl | undefined

    beforeAll(async () => {
      server = await startScriptedServer({ scenario: parseScenario(JSON.stringify(SCENARIO), 'burst.json') })
      dir = await scratch('swarmdesk-cc-burst-')
      await mkdir(join(dir, 'work'))
    })
    afterAll(async () => {
      control?.dispose()
      await claude?.kill()
      await server?.close()
      if (dir) await rm(dir, { recursive: true, force: true })
    })

    /** Every text alice's model requests have carried so far. */
    const aliceSaw = () =>
      server
        .requests()
        .filter((r) => r.agentName === 'alice')
        .map((r) => r.rawBody ?? JSON.stringify(r.body))
        .join('\n')

    it('loses no message of either writer', async () => {
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
      const deadline = Date.now() + 90_000
      let team = (await control.list()).teams[0]
      while (!team?.members.some((m) => m.name === 'alice' && m.status === 'active')) {
        if (Date.now() > deadline) throw new Error(`alice never joined:\n${claude.screen()}`)
        await new Promise((r) => setTimeout(r, 200))
        team = (await control.list()).teams[0]
      }
      const inbox = join(claude.configDir, 'teams', team.name, 'inboxes', 'alice.json')

      // the leader's burst starts with its next model answer; Swarmdesk writes all the while
      await claude.submit('Burst now')
      const leadSent = () => server.requests().filter((r) => r.agentName === 'team-lead').length
      const before = leadSent()
      let torn = 0
      const start = new Date().toISOString()
      for (let i = 0; i < 3 * N; i++) {
        await control.message(team.name, 'alice', `from swarmdesk sd-${i}`)
        const text = await readFile(inbox, 'utf8').catch(() => '[]')
        if (!ClaudeInboxSchema.safeParse(JSON.parse(text)).success) torn++
        if (i % N === N - 1) await new Promise((r) => setTimeout(r, 150))
      }
      const end = new Date().toISOString()
      expect(leadSent()).toBeGreaterThan(before)

      const wanted = [
        ...Array.from({ length: N }, (_, i) => `from claude cc-${i}`),
        ...Array.from({ length: 3 * N }, (_, i) => `from swarmdesk sd-${i}`)
      ]
      const until = Date.now() + 120_000
      let missing = wanted
      while (missing.length > 0 && Date.now() < until) {
        const saw = aliceSaw()
        missing = wanted.filter((w) => !saw.includes(w))
        if (missing.length > 0) await new Promise((r) => setTimeout(r, 500))
      }
      expect(missing, `not delivered to alice:\n${claude.screen()}`).toEqual([])
      expect(torn).toBe(0)
      // the two bursts did overlap: Claude Code wrote some of its messages while Swarmdesk was writing
      const cc = (await control.list()).teams[0]!.messages.filter((m) => m.text.startsWith('from claude'))
      const during = cc.filter((m) => m.timestamp >= start && m.timestamp <= end)
      expect(during.length, JSON.stringify({ start, end, cc: cc.map((m) => m.timestamp) })).toBeGreaterThan(0)
    }, 300_000)
  }
)
