import { type PtyHost } from '../../pty/types'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readlinkSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TerminalSize } from '../../../../shared/terminalSize'
import { EventBus } from '../../events/bus'
import { createPtyHost, PtySizeError } from '../../pty'
import { startScriptedServer, type ScriptedServer } from '../../scripted'
import { TeamStore } from '../../teams'

import { ProcessTeammateExecutor } from './executor'
import { until } from '../../pty/pty.testkit'

/**
 * The size the kernel holds for the terminal a process writes to (its stdout): what the program
 * reads with TIOCGWINSZ, as `rows cols`.
 */
function terminalSizeOf(pid: number): string {
  const tty = readlinkSync(`/proc/${pid}/fd/1`)
  expect(tty).toMatch(/^\/dev\/pts\/\d+$/)
  return execFileSync('stty', ['-F', tty, 'size'], { encoding: 'utf8' }).trim()
}

describe('ProcessTeammateExecutor.resize (a real `swarmdesk teammate` in a real pty)', () => {
  let home: string
  let work: string
  let pty: PtyHost
  let server: ScriptedServer
  const executors: ProcessTeammateExecutor[] = []
  const suffix = Math.random().toString(36).slice(2, 8)

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'swarmdesk-ptr-home-'))
    work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-ptr-work-')))
    pty = createPtyHost()
    server = await startScriptedServer({ scenario: { agents: { alice: [{ text: 'Idle.' }] } } })
  })

  afterAll(async () => {
    await Promise.all(executors.map((e) => e.dispose()))
    await pty.dispose()
    await server.close()
    rmSync(home, { recursive: true, force: true })
    rmSync(work, { recursive: true, force: true })
  })

  /** Team `base-suffix` with alice (process backend) and an executor whose panes report `paneSizes`. */
  async function setUp(base: string, paneSizes: Map<string, TerminalSize>) {
    const team = `${base}-${suffix}`
    const teams = new TeamStore(home)
    await teams.create({
      name: team,
      description: 'resize test',
      lead: { name: 'team-lead', agentType: 'main', model: 'claude-sonnet-5-5', backendType: 'main', cwd: work }
    })
    const alice = await teams.addMember(team, {
      name: 'alice',
      agentType: 'general-purpose',
      model: 'claude-sonnet-5-5',
      backendType: 'process',
      cwd: work,
      isActive: false,
      mode: 'default'
    })
    const executor = new ProcessTeammateExecutor({
      bus: new EventBus(),
      pty,
      transcriptPollMs: 60_000,
      paneSize: (id) => paneSizes.get(id)
    })
    executors.push(executor)
    const agentId = `alice@${team}`
    const spawn = () =>
      executor.spawn({
        home,
        team,
        name: 'alice',
        agentId,
        cwd: work,
        color: alice.color,
        model: 'claude-sonnet-5-5',
        mode: 'default',
        planModeRequired: false,
        sessionId: `session-${team}`,
        leaderAgentId: `team-lead@${team}`,
        env: { ANTHROPIC_BASE_URL: server.url, SWARMDESK_SCRIPTED_MODEL_URL: server.url, ANTHROPIC_API_KEY: 'test-key' }
      })
    return { executor, agentId, spawn }
  }

  it("starts at the default size without a pane size, and resizes the running teammate's terminal", async () => {
    const t = await setUp('grow', new Map())
    const handle = await t.spawn()
    expect(terminalSizeOf(handle.pid)).toBe('40 120')
    expect(t.executor.resize(t.agentId, 173, 51)).toBe(true)
    expect(terminalSizeOf(handle.pid)).toBe('51 173')
    expect(t.executor.resize(t.agentId, 64, 12)).toBe(true)
    expect(terminalSizeOf(handle.pid)).toBe('12 64')
    // a bad size is refused before anything changes
    expect(() => t.executor.resize(t.agentId, 0, 12)).toThrow(PtySizeError)
    expect(() => t.executor.resize(t.agentId, 64, 12.5)).toThrow(
      /rows must be a whole number from 1 to 1000, not 12\.5/
    )
    expect(terminalSizeOf(handle.pid)).toBe('12 64')
    // nobody to resize: a teammate it does not run, and one that ended
    expect(t.executor.resize(`bob@grow-${suffix}`, 80, 24)).toBe(false)
    await t.executor.kill(t.agentId)
    await handle.exited
    expect(t.executor.resize(t.agentId, 80, 24)).toBe(false)
  }, 60_000)

  it("starts a teammate at its pane's last known size", async () => {
    const sizes = new Map<string, TerminalSize>()
    const t = await setUp('sized', sizes)
    sizes.set(t.agentId, { cols: 97, rows: 23 })
    const handle = await t.spawn()
    await until('the terminal to be open', () => {
      try {
        return readlinkSync(`/proc/${handle.pid}/fd/1`).startsWith('/dev/pts/')
      } catch {
        return false
      }
    })
    expect(terminalSizeOf(handle.pid)).toBe('23 97')
    await t.executor.kill(t.agentId)
  }, 60_000)
})
