import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TeamStore } from '../../runtime/teams'
import { UsageError } from '../io'
import { startNatsServer } from '../../runtime/teamStore/natsServer.testkit'
import { teammateCommand } from './teammate'

describe('swarmdesk teammate: bad usage', () => {
  const saved = { ...process.env }
  let home: string
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'swarmdesk-teammate-cli-'))
    process.env.SWARMDESK_HOME = home
    delete process.env.SWARMDESK_TEAM
    delete process.env.SWARMDESK_AGENT_NAME
  })
  afterEach(() => {
    process.env = { ...saved }
    rmSync(home, { recursive: true, force: true })
  })

  it('names the missing flag, an unknown flag, an unknown team and an unknown member', async () => {
    await expect(teammateCommand(['--name', 'alice'])).rejects.toThrow(/--team is required/)
    await expect(teammateCommand(['--team', 't'])).rejects.toThrow(/--name is required/)
    await expect(teammateCommand(['--team', 't', '--name', 'alice', '--bogus'])).rejects.toBeInstanceOf(UsageError)
    await expect(teammateCommand(['--team', 'nope', '--name', 'alice'])).rejects.toThrow(/Team 'nope' does not exist/)
    await new TeamStore(home).create({
      name: 'crew',
      lead: { name: 'team-lead', agentType: 'main', model: 'claude-sonnet-5-5', backendType: 'main', cwd: home }
    })
    await expect(teammateCommand(['--team', 'crew', '--name', 'bob'])).rejects.toThrow(
      /'bob' is not a member of team 'crew'. Members: team-lead/
    )
  })

  it('looks for its team on the NATS server its environment names, not in the files', async () => {
    await new TeamStore(home).create({
      name: 'crew',
      lead: { name: 'team-lead', agentType: 'main', model: 'claude-sonnet-5-5', backendType: 'main', cwd: home }
    })
    const server = await startNatsServer()
    try {
      process.env.SWARMDESK_TEAM_TRANSPORT = server.url
      await expect(teammateCommand(['--team', 'crew', '--name', 'bob'])).rejects.toThrow(/Team 'crew' does not exist/)
      delete process.env.SWARMDESK_TEAM_TRANSPORT
      await expect(
        teammateCommand(['--team', 'crew', '--name', 'bob', '--team-transport', server.url])
      ).rejects.toThrow(/Team 'crew' does not exist/)
    } finally {
      await server.stop()
    }
  }, 30_000)

  it('takes the team and name from SWARMDESK_TEAM and SWARMDESK_AGENT_NAME', async () => {
    process.env.SWARMDESK_TEAM = 'from-env'
    process.env.SWARMDESK_AGENT_NAME = 'alice'
    await expect(teammateCommand([])).rejects.toThrow(/Team 'from-env' does not exist/)
  })

  it('reads its --mcp-config files after the leader’s (SWARMDESK_MCP_CONFIG): a malformed one is bad usage naming file and field', async () => {
    const teams = new TeamStore(home)
    await teams.create({
      name: 'crew',
      lead: { name: 'team-lead', agentType: 'main', model: 'claude-sonnet-5-5', backendType: 'main', cwd: home }
    })
    await teams.addMember('crew', {
      name: 'alice',
      agentType: 'general-purpose',
      model: 'claude-sonnet-5-5',
      backendType: 'process',
      cwd: home,
      isActive: false,
      mode: 'default'
    })
    process.env.ANTHROPIC_API_KEY = 'test-key'
    const good = join(home, 'leader.json')
    writeFileSync(good, JSON.stringify({ mcpServers: {} }))
    process.env.SWARMDESK_MCP_CONFIG = JSON.stringify([good])
    const bad = join(home, 'mine.json')
    writeFileSync(bad, JSON.stringify({ mcpServers: { docs: { url: 'http://127.0.0.1:9/mcp' } } }))
    const run = teammateCommand(['--team', 'crew', '--name', 'alice', '--mcp-config', bad])
    await expect(run).rejects.toBeInstanceOf(UsageError)
    await expect(run).rejects.toThrow(`${bad}: mcpServers.docs.type: is missing`)
    // refused before it joined: still inactive
    expect(teams.read('crew').members.find((m) => m.name === 'alice')?.isActive).toBe(false)
  })
})
