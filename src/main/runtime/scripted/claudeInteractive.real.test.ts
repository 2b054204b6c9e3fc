import { mkdir, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installClaudeCode, scratch } from './claudeCode.testkit'
import { startInteractiveClaude, type InteractiveClaude } from './claudeInteractive.testkit'
import { parseScenario } from './scenario'
import { startScriptedServer, type ScriptedServer } from './server'

/**
 * The real Claude Code's interactive TUI in a node-pty against the scripted model: a first-run
 * config seeded so it goes straight to its prompt, one scripted turn round-tripped, and the state
 * it records in `sessions/<pid>.json` (docs/model.md#claude-code).
 */
const install = await installClaudeCode()
if (install.skip) console.warn(`interactive claude tests skipped: ${install.skip}`)

describe.skipIf(install.skip !== undefined)(
  `the real claude, interactive, in a pty${install.skip ? ` (skipped: ${install.skip})` : ''}`,
  () => {
    let server: ScriptedServer
    let dir: string
    let claude: InteractiveClaude | undefined

    beforeAll(async () => {
      server = await startScriptedServer({
        scenario: parseScenario(
          `agents:\n  team-lead:\n    - text: "Hello from the scripted model, turn one."\n`,
          'interactive.yaml'
        )
      })
      dir = await scratch('swarmdesk-claude-tui-')
      await mkdir(join(dir, 'work'))
    })
    afterAll(async () => {
      await claude?.kill()
      await server?.close()
      if (dir) await rm(dir, { recursive: true, force: true })
    })

    it('starts at its prompt with no first-run screen, answers one prompt, and its session file ends idle', async () => {
      claude = await startInteractiveClaude(install.bin!, {
        baseUrl: server.url,
        cwd: join(dir, 'work'),
        home: join(dir, 'home')
      })
      const first = await claude.waitForScreen(/[>❯]\s/, 30_000)
      expect(first).not.toContain('Unable to connect')
      expect(first).not.toMatch(/trust|Choose the text style|Do you want to use this API key/i)
      const record = await until(() => claude!.sessionRecord())
      expect(record).toMatchObject({ pid: claude.pid, cwd: expect.stringContaining('work') })
      expect(record.sessionId).toMatch(/^[0-9a-f-]{36}$/)

      await claude.submit('say hello')
      await claude.waitForScreen('Hello from the scripted model, turn one.', 30_000)
      const lead = server.requests().filter((r) => r.agentName === 'team-lead')
      expect(lead.length).toBeGreaterThanOrEqual(1)
      expect(JSON.stringify(lead.at(-1)!.body)).toContain('say hello')
      await until(async () => ((await claude!.sessionRecord())?.status === 'idle' ? true : undefined))

      // its transcript is where `claude --resume <id>` finds it
      const projects = join(claude.configDir, 'projects')
      const [slug] = await readdir(projects)
      expect(await readdir(join(projects, slug!))).toContain(`${record.sessionId}.jsonl`)
    }, 90_000)

    it('kill ends the process and its group', async () => {
      const pid = claude!.pid
      await claude!.kill()
      expect(() => process.kill(pid, 0)).toThrow()
    })
  }
)

async function until<T>(check: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
