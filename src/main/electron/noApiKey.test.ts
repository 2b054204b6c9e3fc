import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PushChannel, WorkspaceSnapshot } from '../../shared/ipc'
import { startScriptedServer } from '../runtime/scripted'
import { WorkspaceService } from '../app/service'

/** A reversible stand-in for the OS keychain (XOR), as in secrets.test.ts. */
vi.mock('electron', () => {
  const xor = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a))
  return {
    safeStorage: {
      isAsyncEncryptionAvailable: async () => true,
      getSelectedStorageBackend: () => 'gnome_libsecret',
      encryptStringAsync: async (text: string) => xor(Buffer.from(`v1:${text}`)),
      decryptStringAsync: async (data: Buffer) => ({
        result: xor(data).toString().replace(/^v1:/, ''),
        shouldReEncrypt: false
      })
    }
  }
})

const { liveApiKeyStore, storedApiKey } = await import('./app')
const { createKeychainApiKeyStore, secretsPath } = await import('./secrets')

const KEY = 'sk-ant-app-settings-key-9e10'
const cleanup: Array<() => Promise<unknown> | void> = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

describe('the app on a first run without an API key', () => {
  it('opens the workspace in its no-key state, and a key entered in Settings starts the leader at once', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-app-home-')))
    const work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-app-work-')))
    cleanup.push(
      () => rmSync(home, { recursive: true, force: true }),
      () => rmSync(work, { recursive: true, force: true })
    )
    execFileSync('git', ['init', '-q', work])
    const server = await startScriptedServer({
      scenario: { apiKey: KEY, agents: { '*': [{ text: 'Hello with the stored key.' }] } } as never
    })
    cleanup.push(() => server.close())
    // the app's own wiring (app.ts serviceStarter): the keychain's key, followed live
    const env = { ANTHROPIC_BASE_URL: server.url }
    const apiKey = await storedApiKey(home)
    const apiKeys = liveApiKeyStore(createKeychainApiKeyStore(home, env), apiKey)
    const service = await WorkspaceService.start({ cwd: work, home, env, apiKeys, apiKey })
    cleanup.push(() => service.dispose())
    const pushes: Array<{ channel: PushChannel; payload: unknown }> = []
    service.onPush((channel, payload) => pushes.push({ channel, payload }))

    expect(((await service.handle('workspace.snapshot', {})) as WorkspaceSnapshot).modelAccess?.noApiKey).toMatchObject(
      { fix: 'settings', message: expect.stringContaining('Open Settings') }
    )
    await expect(service.handle('leader.prompt', { text: 'hi' })).rejects.toThrow(/No API key is set.*Settings/)

    const status = await service.handle('settings.setApiKey', { apiKey: KEY })
    expect(status).toMatchObject({ source: 'keychain', storage: 'encrypted' })
    expect(readFileSync(secretsPath(home), 'utf8')).not.toContain(KEY)
    expect(pushes.find((p) => p.channel === 'model.access')?.payload).toEqual({})
    await service.handle('leader.prompt', { text: 'hi' })
    await service.whenIdle()
    expect(server.requests().map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`])
    expect(JSON.stringify(pushes)).toContain('Hello with the stored key.')
    expect(JSON.stringify(pushes)).not.toContain(KEY)
  })
})
