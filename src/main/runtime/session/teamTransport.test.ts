import { describe, expect, it } from 'vitest'
import type { LoadedSettings } from '../permissions'
import { TeamTransportError } from '../teamStore'
import { chooseTeamTransport } from './setup'

const settings = (...values: unknown[]) =>
  ({
    sources: values.map((teamTransport) => ({ data: teamTransport === undefined ? {} : { teamTransport } }))
  }) as unknown as Pick<LoadedSettings, 'sources'>

describe('the team transport of a run (docs/nats.md#configuration)', () => {
  it('takes the flag, else SWARMDESK_TEAM_TRANSPORT, else the highest teamTransport setting, else the files', () => {
    const both = settings('nats://low:4222', 'nats://high:4222')
    expect(chooseTeamTransport('nats://flag:1', { SWARMDESK_TEAM_TRANSPORT: 'nats://env:2' }, both)).toEqual({
      kind: 'nats',
      servers: ['nats://flag:1']
    })
    expect(chooseTeamTransport(undefined, { SWARMDESK_TEAM_TRANSPORT: 'nats://env:2' }, both)).toEqual({
      kind: 'nats',
      servers: ['nats://env:2']
    })
    expect(chooseTeamTransport(undefined, {}, both)).toEqual({ kind: 'nats', servers: ['nats://high:4222'] })
    expect(chooseTeamTransport(undefined, {}, settings(undefined))).toEqual({ kind: 'files' })
    expect(chooseTeamTransport('files', {}, both)).toEqual({ kind: 'files' })
  })

  it('reads the object form with its credentials, or the SWARMDESK_NATS_* variables, and names a bad setting', () => {
    expect(
      chooseTeamTransport(undefined, {}, settings({ servers: ['nats://a:1', 'nats://b:2'], user: 'u', password: 'p' }))
    ).toEqual({ kind: 'nats', servers: ['nats://a:1', 'nats://b:2'], auth: { user: 'u', password: 'p' } })
    expect(chooseTeamTransport(undefined, { SWARMDESK_NATS_TOKEN: 'tok' }, settings('nats://a:1'))).toEqual({
      kind: 'nats',
      servers: ['nats://a:1'],
      auth: { token: 'tok' }
    })
    expect(() => chooseTeamTransport(undefined, {}, settings(42))).toThrow(TeamTransportError)
    expect(() => chooseTeamTransport(undefined, {}, settings('http://a:1'))).toThrow(/nats:\/\//)
  })
})
