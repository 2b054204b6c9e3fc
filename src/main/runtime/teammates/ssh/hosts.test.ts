import { describe, expect, it } from 'vitest'
import { SettingsFileSchema } from '../../permissions/settingsSchema'
import type { TeammateHost } from '../../../../shared/teammateHosts'
import { envFileText, remoteEnv, remoteTeammateScript, sshTerminalArgs } from './command'
import { resolveTeammateHost, teammateHostsSetting } from './hosts'

const box: TeammateHost = {
  name: 'box',
  destination: 'dev@box.lan',
  workspace: '/srv/swarm',
  command: 'swarmdesk',
  identityFile: '/keys/id',
  sshOptions: ['ProxyJump=bastion']
}
const nats = { kind: 'nats' as const, servers: ['nats://127.0.0.1:4222'] }

describe('the teammateHosts setting (docs/hosts.md#the-teammatehosts-setting)', () => {
  it('accepts hosts and refuses a relative workspace, an option-like destination, a bad ssh option and a name used twice', () => {
    expect(SettingsFileSchema.safeParse({ teammateHosts: [box] }).success).toBe(true)
    const bad = (patch: Partial<TeammateHost>) =>
      SettingsFileSchema.safeParse({ teammateHosts: [{ ...box, ...patch }] }).error?.issues.map((i) => i.message)
    expect(bad({ workspace: 'srv' })).toEqual(['workspace must be an absolute path on the host'])
    expect(bad({ destination: '-oProxyCommand=evil' })?.[0]).toMatch(/not starting with "-"/)
    expect(bad({ sshOptions: ['-v'] })?.[0]).toMatch(/Key=Value/)
    expect(bad({ name: 'a b' })?.[0]).toMatch(/host name/)
    const twice = SettingsFileSchema.safeParse({ teammateHosts: [box, { ...box }] })
    expect(twice.error?.issues.map((i) => i.message)).toEqual(['host name "box" is used twice'])
  })

  it('is the list of the highest source that sets it', () => {
    const other = { ...box, name: 'other' }
    expect(teammateHostsSetting({ sources: [] })).toEqual([])
    const sources = [{ data: { teammateHosts: [box] } }, { data: {} }, { data: { teammateHosts: [other] } }]
    expect(teammateHostsSetting({ sources } as never)).toEqual([other])
  })
})

describe('a spawn naming a host (docs/hosts.md#spawning-on-a-host)', () => {
  it('finds it, or says which hosts there are, that a worker cannot go there, and that the team must be on JetStream', () => {
    expect(resolveTeammateHost([box], undefined, undefined, nats)).toBeUndefined()
    expect(resolveTeammateHost([box], 'box', undefined, nats)).toBe(box)
    expect(resolveTeammateHost([box], 'box', 'process', nats)).toBe(box)
    expect(() => resolveTeammateHost([box, { ...box, name: 'gpu' }], 'boxx', undefined, nats)).toThrow(
      "No teammate host named 'boxx': the teammateHosts setting has 'box', 'gpu'."
    )
    expect(() => resolveTeammateHost([], 'box', undefined, nats)).toThrow(/names no hosts/)
    expect(() => resolveTeammateHost([box], 'box', 'worker', nats)).toThrow(/runs on the process backend/)
    expect(() => resolveTeammateHost([box], 'box', undefined, { kind: 'files' })).toThrow(
      /needs the team on a NATS JetStream transport.*this team is on files/
    )
  })
})

describe('what the host is given (docs/hosts.md#what-the-teammate-reaches)', () => {
  it('forwards the NATS servers and a loopback model endpoint, leaves a remote endpoint, and drops leader-only paths', () => {
    let port = 30_000
    const { env, forwards } = remoteEnv(
      {
        SWARMDESK_TEAM_TRANSPORT: 'nats://127.0.0.1:4222,nats://10.0.0.9:5222',
        SWARMDESK_NATS_TOKEN: 's3cret',
        SWARMDESK_SCRIPTED_MODEL_URL: 'http://127.0.0.1:8123',
        ANTHROPIC_BASE_URL: 'https://api.example.com/v1',
        SWARMDESK_SETTINGS_FILES: '["/leader/settings.json"]',
        SWARMDESK_MCP_CONFIG: '["/leader/mcp.json"]',
        SWARMDESK_TEAM: 'crew'
      },
      () => port++
    )
    expect(forwards).toEqual([
      { remotePort: 30_000, target: '127.0.0.1:4222' },
      { remotePort: 30_001, target: '10.0.0.9:5222' },
      { remotePort: 30_002, target: '127.0.0.1:8123' }
    ])
    expect(env).toEqual({
      SWARMDESK_TEAM_TRANSPORT: 'nats://127.0.0.1:30000,nats://127.0.0.1:30001',
      SWARMDESK_NATS_TOKEN: 's3cret',
      SWARMDESK_SCRIPTED_MODEL_URL: 'http://127.0.0.1:30002',
      ANTHROPIC_BASE_URL: 'https://api.example.com/v1',
      SWARMDESK_TEAM: 'crew'
    })
  })

  it('puts credentials in the env file, never in the command line', () => {
    expect(envFileText({ SWARMDESK_NATS_TOKEN: "it's", A: 'plain' })).toBe(
      "export SWARMDESK_NATS_TOKEN='it'\\''s'\nexport A=plain\n"
    )
    const script = remoteTeammateScript(
      box,
      {
        dir: '/srv/swarm/crew/ann',
        envFile: '/srv/swarm/crew/.ann.env',
        pidFile: '/srv/swarm/crew/.ann.pid',
        cwd: '/srv/swarm/crew/ann/app'
      },
      'crew',
      'ann',
      'swarmdesk/crew/ann'
    )
    expect(script).toBe(
      '. /srv/swarm/crew/.ann.env && rm -f /srv/swarm/crew/.ann.env && cd /srv/swarm/crew/ann && git checkout -q swarmdesk/crew/ann && echo $$ > /srv/swarm/crew/.ann.pid && exec swarmdesk teammate --team crew --name ann --cwd /srv/swarm/crew/ann/app'
    )
    const { forwards } = remoteEnv(
      { SWARMDESK_TEAM_TRANSPORT: 'nats://127.0.0.1:4222', SWARMDESK_NATS_TOKEN: 's3cret' },
      () => 30_000
    )
    const args = sshTerminalArgs(box, forwards, script)
    expect(args.slice(0, 1)).toEqual(['-tt'])
    expect(args).toContain('ExitOnForwardFailure=yes')
    expect(args.slice(-5)).toEqual(['-R', '127.0.0.1:30000:127.0.0.1:4222', '--', 'dev@box.lan', script])
    expect(args.join(' ')).not.toContain('s3cret')
  })
})
