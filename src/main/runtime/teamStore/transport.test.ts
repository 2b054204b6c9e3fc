import { describe, expect, it } from 'vitest'
import {
  describeTransport,
  parseTeamTransport,
  TeamTransportError,
  transportEnv,
  transportFromEnv,
  type TeamTransport
} from '.'

describe('team transport', () => {
  it('reads files, URL lists and credentials from the URL or beside it', () => {
    expect(parseTeamTransport(undefined)).toEqual({ kind: 'files' })
    expect(parseTeamTransport('files')).toEqual({ kind: 'files' })
    expect(parseTeamTransport('nats://a:4222, nats://b')).toEqual({
      kind: 'nats',
      servers: ['nats://a:4222', 'nats://b:4222']
    })
    expect(parseTeamTransport('nats://tok%40en@h:1')).toEqual({
      kind: 'nats',
      servers: ['nats://h:1'],
      auth: { token: 'tok@en' }
    })
    expect(parseTeamTransport('nats://u:p@h:1')).toMatchObject({ auth: { user: 'u', password: 'p' } })
    expect(parseTeamTransport({ servers: ['nats://h:1'], credsFile: '/c.creds' })).toMatchObject({
      auth: { credsFile: '/c.creds' }
    })
  })

  it('refuses what is not a NATS URL, naming it without its credentials', () => {
    expect(() => parseTeamTransport('http://secret@h:1')).toThrow(TeamTransportError)
    expect(() => parseTeamTransport('http://secret@h:1')).toThrow(/\*\*\*@h:1.*nats:\/\//)
    expect(() => parseTeamTransport('http://secret@h:1')).not.toThrow(/secret/)
    expect(() => parseTeamTransport({ servers: 'nats://h', user: 'u' })).toThrow(/both a user name and a password/)
  })

  it('hands a transport to a child through its environment and back, credentials apart from the URL', () => {
    const t: TeamTransport = { kind: 'nats', servers: ['nats://h:1'], auth: { user: 'u', password: 'p w' } }
    const env = transportEnv(t)
    expect(env.SWARMDESK_TEAM_TRANSPORT).toBe('nats://h:1')
    expect(transportFromEnv(env)).toEqual(t)
    expect(transportFromEnv({})).toEqual({ kind: 'files' })
    // the files need nothing, unless what the child inherits names a server
    expect(transportEnv({ kind: 'files' }, {})).toEqual({})
    const files = transportEnv({ kind: 'files' }, { SWARMDESK_TEAM_TRANSPORT: 'nats://h:1' })
    expect(transportFromEnv({ SWARMDESK_TEAM_TRANSPORT: 'nats://h:1', ...files })).toEqual({ kind: 'files' })
    expect(describeTransport(t)).toBe('nats nats://h:1 (user u)')
    expect(describeTransport({ kind: 'nats', servers: ['nats://h:1'], auth: { token: 'zzz' } })).not.toContain('zzz')
  })
})
