import { randomUUID } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { parseMessageBody } from '../../../../shared/mailbox'
import { NATS_SERVER } from '../../teamStore/natsServer.testkit'
import { RESUME_PROMPT } from '../../session'
import { LEAD_NAME } from '../../teams'
import { teammateSettingsEnv } from '../env'
import { openHostTeam, testHostSetting, until, type HostTeam } from './hostTeam.testkit'
import { startTestHost, stopAllTestHosts, testHostsUnavailable } from './testHost.testkit'

// A host teammate as the leader's supervisor handles it (docs/hosts.md): resumed on the host it ran
// on (its host recorded in the team config, looked up again in the setting), refused with the reason
// when the setting no longer has it; the session's --settings and --mcp-config reach it there (its
// MCP servers and sandbox on the host); and Esc in its pane interrupts its turn there.

/** A real SDK MCP server over stdio (its add_tool answers `added NAME`), in the checkout the test hosts see. */
const GROWING = fileURLToPath(new URL('../../mcp/growingServer.testkit.cjs', import.meta.url))

const unavailable = testHostsUnavailable() ?? (NATS_SERVER ? undefined : 'nats-server is not installed')
if (unavailable) console.warn(`skipping the host team tests: ${unavailable}`)

/** Pids of this machine's processes (every namespace) whose command line has `teammate --team T --name N`. */
function teammatePids(team: string, name: string): number[] {
  const needle = `teammate\0--team\0${team}\0--name\0${name}\0`
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(needle)
      } catch {
        return false
      }
    })
    .map(Number)
}

/** What every spawn here asks besides its name, prompt and host. */
const REQUEST = {
  description: 'host teammate',
  agentType: 'general-purpose',
  model: 'claude-sonnet-5-5',
  mode: 'bypassPermissions'
} as const

let t: HostTeam | undefined
/** Whether `agentId`'s model said `text` (its published events, on the leader's bus). */
const saidBy = (agentId: string, text: string): boolean =>
  t!.events.some((e) => e.type === 'assistant_text' && e.agentId === agentId && e.text === text)
afterEach(async () => {
  await stopAllTestHosts()
  await t?.close()
  t = undefined
}, 120_000)

describe.skipIf(unavailable !== undefined)('host teammates and the supervisor', () => {
  it('a resumed host teammate starts on its host again; with its host gone from the setting it is refused, named, and not started here', async () => {
    t = await openHostTeam('rt', {
      agents: {
        ann: [
          { when: 'Sit.', text: 'Sitting.' },
          { when: 'restarted', text: 'Back on my host.' }
        ]
      }
    })
    const host = await startTestHost({ hide: [t.home, t.repo] })
    const h1 = testHostSetting('h1', host)
    const first = t.supervisor([h1])
    await first.spawn({ ...REQUEST, name: 'ann', prompt: 'Sit.', host: 'h1' })
    // the team config records the host's name (not its destination: the setting is read again at resume)
    const recorded = (await t.store.config.read('rt')).members.find((m) => m.name === 'ann')
    expect(recorded).toMatchObject({ backendType: 'process', host: 'h1' })
    await until('ann sitting', () => saidBy('ann@rt', 'Sitting.'))
    await first.kill('ann', 'the workspace closed')
    await until('ann gone from the host', () => teammatePids('rt', 'ann').length === 0)

    // the workspace started again: Resume starts her on h1, in her clone there
    const again = t.supervisor([h1])
    await again.resume('ann', RESUME_PROMPT)
    const started = t.events.filter((e) => e.type === 'agent_started' && e.agentId === 'ann@rt')
    expect(started.at(-1)).toMatchObject({ backend: 'process', host: 'h1' })
    expect(host.leftovers().filter((pid) => teammatePids('rt', 'ann').includes(pid))).toHaveLength(1)
    expect(teammatePids('rt', 'ann')).toHaveLength(1)
    expect(host.describeLeftovers()).toContain(`--cwd ${host.workspaceRoot}/rt/ann`)
    await until("ann's answer after the restart", () => saidBy('ann@rt', 'Back on my host.'))
    await again.kill('ann', 'the workspace closed again')
    await until('ann gone from the host', () => teammatePids('rt', 'ann').length === 0)

    // started once more with a setting that no longer has h1: refused, naming her and the hosts there are
    const other = { ...h1, name: 'gpu' }
    const third = t.supervisor([other])
    await expect(third.resume('ann', RESUME_PROMPT)).rejects.toThrow(
      "'ann' ran on host 'h1', which the teammateHosts setting no longer has (it has 'gpu')"
    )
    const stopped = t.events.filter((e) => e.type === 'agent_stopped' && e.agentId === 'ann@rt').at(-1)
    expect(stopped).toMatchObject({
      status: 'crashed',
      reason: expect.stringMatching(/could not start again: 'ann' ran on host 'h1'/)
    })
    expect(third.stateOf('ann')).toBeUndefined()
    expect((await t.store.config.read('rt')).members.find((m) => m.name === 'ann')).toMatchObject({
      host: 'h1',
      isActive: false
    })
    // not silently started here instead
    expect(teammatePids('rt', 'ann')).toEqual([])
  }, 180_000)

  it('Esc in a host teammate’s pane interrupts its turn on the host: it says so to the lead and takes its next message', async () => {
    t = await openHostTeam('esc', {
      agents: {
        bea: [
          { when: 'Think long.', delayMs: 600_000, text: 'Never said.' },
          { when: 'Again.', text: 'Recovered.' }
        ]
      }
    })
    const host = await startTestHost({ hide: [t.home, t.repo] })
    const lead = t.supervisor([testHostSetting('h1', host)])
    await lead.spawn({ ...REQUEST, name: 'bea', prompt: 'Think long.', host: 'h1' })
    // her model call is held open by the scripted server: her turn runs
    await until('bea running', () => lead.stateOf('bea') === 'running')
    const idles = async () =>
      (await t!.store.mailbox.read('esc', LEAD_NAME))
        .filter((m) => m.message.from === 'bea')
        .map((m) => parseMessageBody(m.message.text))
        .flatMap((b) =>
          b.kind === 'structured' && (b.body as { type?: string }).type === 'idle_notification'
            ? [b.body as { idleReason?: string }]
            : []
        )
    expect(await idles()).toEqual([])
    expect(lead.interrupt('bea')).toBe(true)
    const idle = await until('her idle notification', async () => (await idles())[0])
    expect(idle).toMatchObject({ idleReason: 'interrupted' })
    await until('bea idle', () => lead.stateOf('bea') === 'idle')
    // still running on her host, and her next message gets her next turn
    expect(teammatePids('esc', 'bea')).toHaveLength(1)
    await t.store.mailbox.send('esc', 'bea', { from: LEAD_NAME, text: 'Again.' })
    await until('her next answer', () => saidBy('bea@esc', 'Recovered.'))
    expect(saidBy('bea@esc', 'Never said.')).toBe(false)
  }, 180_000)

  it('gets the session’s --mcp-config, --settings and the leader’s user settings on its host: the MCP servers only they name run for it there, and the sandbox they turn on confines its Bash', async () => {
    const probe = `/tmp/swarmdesk-hostprobe-${randomUUID()}`
    t = await openHostTeam('cfg', {
      agents: {
        cy: [
          {
            when: 'Use the tools.',
            tools: [
              { name: 'mcp__growing__add_tool', input: { name: 'hello', reply: 'hi' } },
              { name: 'mcp__mine__add_tool', input: { name: 'howdy', reply: 'hey' } }
            ]
          },
          { tools: [{ name: 'Bash', input: { command: `echo x > ${probe}` } }] },
          ...Array.from({ length: 6 }, () => ({ text: 'Done.' }))
        ]
      }
    })
    try {
      // both files in the leader's data folder, which the host does not see
      const mcpFile = join(t.home, 'mcp.json')
      writeFileSync(
        mcpFile,
        JSON.stringify({ mcpServers: { growing: { command: process.execPath, args: [GROWING] } } })
      )
      // and one in the leader's user settings, which a local teammate reads too
      writeFileSync(
        join(t.home, 'settings.json'),
        JSON.stringify({ mcpServers: { mine: { command: process.execPath, args: [GROWING] } } })
      )
      const settingsFile = join(t.home, 'extra-settings.json')
      writeFileSync(settingsFile, JSON.stringify({ sandbox: { enabled: true } }))
      const host = await startTestHost({ hide: [t.home, t.repo] })
      expect((await host.ssh(`test -e ${mcpFile} && echo SEEN || echo HIDDEN`)).stdout.trim()).toBe('HIDDEN')
      const lead = t.supervisor([testHostSetting('h1', host)], teammateSettingsEnv([settingsFile], false, [mcpFile]))
      await lead.spawn({ ...REQUEST, name: 'cy', prompt: 'Use the tools.', host: 'h1' })
      const results = () => t!.events.flatMap((e) => (e.type === 'tool_result' && e.agentId === 'cy@cfg' ? [e] : []))
      const [mcp, mine, bash] = await until('its tool results', () => (results().length >= 3 ? results() : undefined))
      expect(mcp).toMatchObject({ isError: false, output: expect.stringContaining('added hello') })
      expect(mine).toMatchObject({ isError: false, output: expect.stringContaining('added howdy') })
      expect(bash!.output).toContain(`Sandbox blocked a write to ${probe}`)
      expect(existsSync(probe)).toBe(false)
      // the copies are private to the host's user, beside its clone, and go with it
      const listed = await host.ssh(
        `stat -c '%a %n' ${host.workspaceRoot}/cfg/.cy.session ${host.workspaceRoot}/cfg/.cy.session/*`
      )
      expect(listed.stdout.trim().split('\n')).toEqual([
        `700 ${host.workspaceRoot}/cfg/.cy.session`,
        `600 ${host.workspaceRoot}/cfg/.cy.session/mcp-1.json`,
        `600 ${host.workspaceRoot}/cfg/.cy.session/settings-1.json`,
        `600 ${host.workspaceRoot}/cfg/.cy.session/user-settings.json`
      ])
      await lead.kill('cy', 'done')
      const gone = await host.ssh(`ls -A ${host.workspaceRoot}/cfg`)
      expect(gone.stdout.split('\n').filter(Boolean)).toEqual([])
    } finally {
      rmSync(probe, { force: true })
    }
  }, 180_000)
})
