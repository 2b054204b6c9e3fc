import { describe, expect, it } from 'vitest'
import { RunUsageError } from '../base'
import {
  readTeammateEnv,
  teammateIdentityEnv,
  teammateSettingsEnv,
  TEAMMATE_LOCAL_SETTINGS_ENV,
  TEAMMATE_MCP_CONFIG_ENV,
  TEAMMATE_SETTINGS_FILES_ENV,
  TEAMMATE_USER_SETTINGS_ENV
} from './env'

const identity = {
  home: '/data/swarmdesk',
  team: 'docs',
  name: 'alice',
  agentId: 'alice@docs',
  color: 'blue',
  sessionId: '5b0c1f7e-2d4a-4b8e-9c1a-0d3e5f7a9b2c',
  leaderAgentId: 'team-lead@docs',
  planModeRequired: true,
  model: 'claude-sonnet-5-5'
}

describe('the teammate environment', () => {
  it('reads back what both backends write, identity and shared settings alike', () => {
    const env = {
      PATH: '/usr/bin',
      ...teammateSettingsEnv(['/etc/extra.json'], true, ['/etc/mcp-a.json', '/etc/mcp-b.json']),
      ...teammateIdentityEnv(identity),
      // a teammate on another host: the leader's user and local settings, copied there
      [TEAMMATE_USER_SETTINGS_ENV]: '/srv/swarm/crew/.alice.session/user-settings.json',
      [TEAMMATE_LOCAL_SETTINGS_ENV]: '/srv/swarm/crew/.alice.session/local-settings.json'
    }
    expect(readTeammateEnv(env)).toEqual({
      home: identity.home,
      team: 'docs',
      name: 'alice',
      agentId: 'alice@docs',
      color: 'blue',
      sessionId: identity.sessionId,
      leaderAgentId: 'team-lead@docs',
      planModeRequired: true,
      model: 'claude-sonnet-5-5',
      settingsFiles: ['/etc/extra.json'],
      trustProject: true,
      mcpConfigFiles: ['/etc/mcp-a.json', '/etc/mcp-b.json'],
      sources: {
        userFile: '/srv/swarm/crew/.alice.session/user-settings.json',
        localFile: '/srv/swarm/crew/.alice.session/local-settings.json'
      }
    })
    expect(readTeammateEnv(teammateIdentityEnv({ ...identity, planModeRequired: false })).planModeRequired).toBe(false)
  })

  it('takes an environment without any of its variables (a teammate started by hand)', () => {
    expect(readTeammateEnv({ PATH: '/usr/bin', SWARMDESK_TEAM: '' })).toEqual({
      planModeRequired: false,
      settingsFiles: [],
      trustProject: false,
      mcpConfigFiles: [],
      sources: {}
    })
  })

  it('names every invalid variable and what it must be', () => {
    const read = (): unknown => readTeammateEnv({ SWARMDESK_PLAN_MODE_REQUIRED: 'yes', SWARMDESK_AGENT_ID: 'alice' })
    expect(read).toThrow(RunUsageError)
    expect(read).toThrow(/SWARMDESK_PLAN_MODE_REQUIRED.*"yes"/)
    expect(read).toThrow(/SWARMDESK_AGENT_ID must be name@team \(got "alice"\)/)
    expect(() => readTeammateEnv({ [TEAMMATE_SETTINGS_FILES_ENV]: '/etc/extra.json' })).toThrow(
      /must be a JSON array of settings file paths/
    )
    expect(() => readTeammateEnv({ [TEAMMATE_MCP_CONFIG_ENV]: 'mcp.json' })).toThrow(
      'SWARMDESK_MCP_CONFIG must be a JSON array of MCP configuration file paths; got mcp.json'
    )
    expect(() => readTeammateEnv({ [TEAMMATE_USER_SETTINGS_ENV]: 'settings.json' })).toThrow(
      /SWARMDESK_USER_SETTINGS_FILE must be an absolute path/
    )
  })
})
