import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installClaudeCode, runClaude, scratch, type ClaudeRun } from './claudeCode.testkit'
import { parseScenario } from './scenario'
import { startScriptedServer, type ScriptedServer } from './server'
import type { RecordedRequest } from './state'

/**
 * The real Claude Code (installed from npm into the test cache, version pinned) against the
 * scripted model, with its default model: a Bash round trip, a subagent and a background agent's
 * task notification (docs/model.md#claude-code).
 */
const install = await installClaudeCode()
if (install.skip) console.warn(`claude interop tests skipped: ${install.skip}`)

const SCENARIO = `
name: claude-code-interop
strict: true
agents:
  team-lead:
    - tools: [ { name: Bash, input: { command: "echo round-$((20+22))", description: "Echo a sum" } } ]
    - when: "round-42"
      tools: [ { name: Agent, input: { subagent_type: Explore, description: "Look around", prompt: "List the files here" } } ]
    - when: "explore found 3 files"
      tools: [ { name: Agent, input: { description: "Back job", prompt: "Do the background job", run_in_background: true } } ]
    - when: "Async agent launched"
      text: "launched {{last_agent_id}}"
    - when: "<task-notification>"
      text: "notified: {{last_agent_id}} finished"
  "type:Explore":
    - text: "explore found 3 files"
  back-job:
    - text: "background work finished"
`

describe.skipIf(install.skip !== undefined)(
  `the real claude -p against the scripted model${install.skip ? ` (skipped: ${install.skip})` : ''}`,
  () => {
    let server: ScriptedServer
    let dir: string
    let result: ClaudeRun
    let log: RecordedRequest[]
    const bodyOf = (r: RecordedRequest) =>
      r.body as { model: string; messages: Array<{ role: string; content: unknown }> }

    beforeAll(async () => {
      server = await startScriptedServer({ scenario: parseScenario(SCENARIO, 'interop.yaml') })
      dir = await scratch('swarmdesk-claude-')
      await mkdir(join(dir, 'work'))
      await mkdir(join(dir, 'home'))
      result = await runClaude(install.bin!, ['-p', '--dangerously-skip-permissions', 'run it'], {
        baseUrl: server.url,
        cwd: join(dir, 'work'),
        home: join(dir, 'home')
      })
      log = server.requests()
    }, 180_000)
    afterAll(async () => {
      await server?.close()
      if (dir) await rm(dir, { recursive: true, force: true })
    })

    it('runs a Bash command on its default model and gets its output back', () => {
      expect(result.stderr).toBe('')
      expect(result.code).toBe(0)
      const lead = log.filter((r) => r.agentName === 'team-lead')
      expect(lead.length).toBeGreaterThanOrEqual(4)
      expect(bodyOf(lead[0]!).model).toMatch(/^claude-opus-/)
      const second = JSON.stringify(bodyOf(lead[1]!).messages)
      expect(second).toContain('"tool_result","content":"round-42"')
      // every request was answered: none refused, none unscripted
      expect(log.every((r) => r.agentName !== undefined)).toBe(true)
    })

    it('starts an Explore subagent on its own id and script, and gets its answer as the Agent result', () => {
      const explore = log.filter((r) => r.agentType === 'Explore')
      expect(explore).toHaveLength(1)
      expect(explore[0]!.agentId).toMatch(/^a[0-9a-f]{16}$/)
      expect(explore[0]!.agentName).toBe('look-around')
      expect(bodyOf(explore[0]!).model).toMatch(/^claude-haiku-/)
      const after = log
        .filter((r) => r.agentName === 'team-lead')
        .find((r) => JSON.stringify(bodyOf(r).messages).includes('explore found 3 files'))
      expect(after).toBeDefined()
    })

    it('runs a background agent and hands the leader its task notification', () => {
      const back = log.filter((r) => r.agentName === 'back-job')
      expect(back).toHaveLength(1)
      const id = back[0]!.agentId!
      expect(id).toMatch(/^a[0-9a-f]{16}$/)
      const notified = log.find(
        (r) => r.agentName === 'team-lead' && JSON.stringify(bodyOf(r).messages).includes(`<task-id>${id}</task-id>`)
      )
      expect(notified).toBeDefined()
      expect(result.stdout.trim()).toBe(`notified: ${id} finished`)
    })
  }
)
