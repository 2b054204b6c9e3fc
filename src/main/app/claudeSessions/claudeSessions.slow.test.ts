import { Terminal } from '@xterm/headless'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AgentView } from '../../../shared/ipc'
import { installClaudeCode } from '../../runtime/scripted/claudeCode.testkit'
import { INTERACTIVE_API_KEY, seedClaudeConfig } from '../../runtime/scripted/claudeInteractive.testkit'
import { parseScenario, startScriptedServer, type ScriptedServer } from '../../runtime/scripted'
import { WorkspaceService } from '../service'
import { savedSessionsPath } from './saved'

/**
 * The person's own claude (the real Claude Code, pinned) in a workspace pane, against the scripted
 * model (docs/claude-code.md#sessions-in-panes): keys typed in the pane reach it, its dashboard
 * state follows its `sessions/<pid>.json` (working, waiting for a permission answer, idle) with a
 * notice when it waits, and after a restart the session comes back through `claude --resume`.
 */
const install = await installClaudeCode()
if (install.skip) console.warn(`Claude Code session tests skipped: ${install.skip}`)

const CC_SCENARIO = `
agents:
  team-lead:
    - when: "make the file"
      tools: [ { name: Bash, input: { command: "touch made-by-claude.txt && echo made-it", description: "Make a file" } } ]
    - when: "made-it"
      text: "The file is made, turn two."
    - when: "are you there"
      text: "Resumed and still here, turn three."
`

describe.skipIf(install.skip !== undefined)(
  `a Claude Code session in a pane${install.skip ? ` (skipped: ${install.skip})` : ''}`,
  () => {
    let dir: string
    let work: string
    let home: string
    let ccHome: string
    let server: ScriptedServer
    let service: WorkspaceService | undefined
    let env: NodeJS.ProcessEnv

    beforeAll(async () => {
      dir = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-ccpane-')))
      work = join(dir, 'work')
      home = join(dir, 'swarmdesk-home')
      ccHome = join(dir, 'cc-home')
      for (const d of [work, home, ccHome]) mkdirSync(d)
      writeFileSync(join(dir, 'leader.yaml'), 'agents:\n  team-lead:\n    - text: "unused"\n')
      server = await startScriptedServer({ scenario: parseScenario(CC_SCENARIO, 'cc.yaml') })
      await seedClaudeConfig({ configDir: join(ccHome, '.claude'), trusted: [work] })
      env = {
        PATH: process.env.PATH,
        HOME: ccHome,
        CLAUDE_CONFIG_DIR: join(ccHome, '.claude'),
        LANG: 'C.UTF-8',
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: INTERACTIVE_API_KEY,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        IS_SANDBOX: '1'
      }
    })
    afterAll(async () => {
      await service?.dispose()
      await server?.close()
      if (dir) rmSync(dir, { recursive: true, force: true })
    })

    const start = () =>
      WorkspaceService.start({
        cwd: work,
        home,
        scenario: join(dir, 'leader.yaml'),
        env,
        claudePath: install.bin!,
        claudeSession: false
      })

    /** The pane of `agentId` as a person sees it, rendered from the service's `pane.data` pushes. */
    function watchPane(s: WorkspaceService, agentId: string) {
      const term = new Terminal({ cols: 120, rows: 40, allowProposedApi: true })
      s.onPush((channel, payload) => {
        const p = payload as { agentId: string; data: string }
        if (channel === 'pane.data' && p.agentId === agentId) term.write(p.data)
      })
      const screen = () => {
        const b = term.buffer.active
        return Array.from(
          { length: term.rows },
          (_, i) => b.getLine(b.viewportY + i)?.translateToString(true) ?? ''
        ).join('\n')
      }
      return {
        screen,
        async waitFor(text: string | RegExp, ms = 30_000) {
          const deadline = Date.now() + ms
          for (;;) {
            await new Promise<void>((r) => term.write('', r))
            const shown = screen()
            if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return shown
            if (Date.now() > deadline) throw new Error(`the pane never showed ${String(text)}:\n${shown}`)
            await new Promise((r) => setTimeout(r, 50))
          }
        }
      }
    }
    const agent = async (s: WorkspaceService, id: string) =>
      ((await s.handle('workspace.snapshot', {})) as { agents: AgentView[] }).agents.find((a) => a.agentId === id)
    const stateBecomes = async (s: WorkspaceService, id: string, state: string, ms = 20_000) => {
      const deadline = Date.now() + ms
      while ((await agent(s, id))?.state !== state) {
        if (Date.now() > deadline) throw new Error(`${id} never became ${state}: ${JSON.stringify(await agent(s, id))}`)
        await new Promise((r) => setTimeout(r, 50))
      }
    }
    const notices = (s: WorkspaceService) => {
      const seen: string[] = []
      s.onPush((channel, payload) => {
        const e = payload as { type?: string; message?: string }
        if (channel === 'runtime.event' && e.type === 'notice') seen.push(e.message ?? '')
      })
      return seen
    }
    const type = async (s: WorkspaceService, agentId: string, text: string) => {
      await s.handle('pane.input', { agentId, data: text })
      await new Promise((r) => setTimeout(r, 300))
      await s.handle('pane.input', { agentId, data: '\r' })
    }

    let sessionId: string
    it('runs claude in a pane: typed keys reach it, a permission wait shows on the dashboard, the answer goes through', async () => {
      service = await start()
      const seen = notices(service)
      const { agentId } = (await service.handle('claude.start', {})) as { agentId: string }
      expect(agentId).toBe('claude-1')
      const pane = watchPane(service, agentId)
      expect(await agent(service, agentId)).toMatchObject({ agentType: 'claude-code', backend: 'process', depth: 0 })
      await pane.waitFor(/[>❯]\s/)
      await stateBecomes(service, agentId, 'idle')

      await type(service, agentId, 'make the file')
      await pane.waitFor(/Do you want to proceed\?/)
      await stateBecomes(service, agentId, 'awaiting_permission')
      expect(seen.some((m) => /Claude Code 1 waits for you/.test(m))).toBe(true)
      await service.handle('pane.input', { agentId, data: '\r' }) // "1. Yes" is selected
      await pane.waitFor('The file is made, turn two.')
      await stateBecomes(service, agentId, 'idle')
      expect(existsSync(join(work, 'made-by-claude.txt'))).toBe(true)

      const saved = JSON.parse(readFileSync(savedSessionsPath(home, work), 'utf8')) as {
        sessions: Array<{ paneId: string; sessionId?: string; cwd: string }>
      }
      expect(saved.sessions).toHaveLength(1)
      expect(saved.sessions[0]).toMatchObject({ paneId: 'claude-1', cwd: work })
      sessionId = saved.sessions[0]!.sessionId!
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/)
      await expect(service.handle('pane.input', { agentId: 'team-lead', data: 'x' })).rejects.toThrow(/takes no keys/)
    }, 90_000)

    it('after a restart reopens the session with claude --resume: the same conversation goes on', async () => {
      await service!.dispose()
      const before = server.requests().length
      service = await start()
      const pane = watchPane(service, 'claude-1')
      await stateBecomes(service, 'claude-1', 'idle', 30_000)
      await type(service, 'claude-1', 'are you there')
      await pane.waitFor('Resumed and still here, turn three.')
      const resumed = server
        .requests()
        .slice(before)
        .filter((r) => r.agentName === 'team-lead')
      const body = JSON.stringify(resumed.at(-1)!.body)
      // the earlier turns are in the resumed conversation
      expect(body).toContain('make the file')
      expect(body).toContain('are you there')
      expect(resumed.at(-1)!.agentId).toBe(sessionId)
    }, 90_000)

    it('claude.stop ends it and it is not reopened', async () => {
      await service!.handle('claude.stop', { agentId: 'claude-1' })
      const deadline = Date.now() + 10_000
      while ((await agent(service!, 'claude-1'))?.endStatus !== 'killed') {
        if (Date.now() > deadline)
          throw new Error(`claude-1 did not end: ${JSON.stringify(await agent(service!, 'claude-1'))}`)
        await new Promise((r) => setTimeout(r, 50))
      }
      const saved = JSON.parse(readFileSync(savedSessionsPath(home, work), 'utf8')) as { sessions: unknown[] }
      expect(saved.sessions).toEqual([])
    }, 30_000)
  }
)
