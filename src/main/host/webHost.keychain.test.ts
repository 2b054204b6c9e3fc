import { execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiKeyStatus } from '../../shared/settings'
import type { ApiKeyStore } from '../app/settingsControl'
import { WorkspaceService } from '../app/service'
import { startHostFixture, type HostFixture } from './hostFixture.testkit'
import { FrameLog, openSocket } from './host.testkit'

let root: string
let service: WorkspaceService
let fx: HostFixture
/** Channels the bridge handed to the service. */
const handled: string[] = []
/** Keys the store was asked to keep: the bridge must never get one this far. */
const stored: string[] = []

/** A store that records what reaches it, so the test sees the bridge stop a key before the runtime. */
const spyStore: ApiKeyStore = {
  status: async (): Promise<ApiKeyStatus> => ({ source: 'none', storage: 'encrypted' }),
  set: async (apiKey) => {
    stored.push(apiKey)
    return { source: 'keychain', storage: 'encrypted' }
  },
  clear: async () => {
    stored.push('<clear>')
    return { source: 'none', storage: 'encrypted' }
  }
}

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-bridge-keys-')))
  const cwd = join(root, 'repo')
  execFileSync('git', ['init', '-q', cwd])
  writeFileSync(join(root, 'scenario.json'), JSON.stringify({ agents: { 'team-lead': [{ text: 'Hi.' }] } }))
  service = await WorkspaceService.start({
    cwd,
    home: join(root, 'home'),
    scenario: join(root, 'scenario.json'),
    env: {},
    apiKeys: spyStore
  })
  fx = await startHostFixture({
    handle: (channel, payload) => {
      handled.push(channel)
      return service.handle(channel, payload)
    },
    onPush: (listener) => service.onPush(listener)
  })
})
afterAll(async () => {
  await fx?.dispose()
  await service?.dispose()
  rmSync(root, { recursive: true, force: true })
})

describe('the web host and the API key', () => {
  it('refuses every key-setting request in the bridge, before the runtime sees it', async () => {
    const attempt = await openSocket(fx.host.port, `/bridge?token=${fx.host.token}`)
    if (attempt.kind !== 'open') throw new Error(`bridge refused: ${attempt.status}`)
    const log = new FrameLog(attempt.socket)
    attempt.socket.send(
      JSON.stringify({
        kind: 'request',
        id: 1,
        channel: 'settings.setApiKey',
        payload: { apiKey: 'sk-ant-from-a-browser', acceptUnencrypted: true }
      })
    )
    attempt.socket.send(JSON.stringify({ kind: 'request', id: 2, channel: 'settings.clearApiKey', payload: {} }))
    attempt.socket.send(JSON.stringify({ kind: 'request', id: 3, channel: 'settings.get', payload: {} }))
    for (const id of [1, 2]) {
      expect(await log.next((f) => f.id === id)).toMatchObject({
        kind: 'response',
        ok: false,
        error: {
          name: 'KeychainRefusedError',
          message: expect.stringMatching(/web host has no keychain.*ANTHROPIC_API_KEY/)
        }
      })
    }
    expect(await log.next((f) => f.id === 3)).toMatchObject({
      kind: 'response',
      ok: true,
      result: { apiKey: { source: 'none' } }
    })
    expect(stored).toEqual([])
    expect(handled.filter((c) => c.startsWith('settings.'))).toEqual(['settings.get'])
    attempt.socket.close()
  })
})
