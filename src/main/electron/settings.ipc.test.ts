import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { IpcResult } from '../../shared/ipcResult'
import { WorkspaceService } from '../app/service'
import { registerWorkspaceIpc } from './ipc'
import { createAppOrigin } from './origin'
import { APP_URL, FakeIpcMain, INDEX_HTML } from './electron.testkit'

/** The OS keychain as safeStorage presents it: availability, backend, and a reversible cipher. */
const keychain = vi.hoisted(() => ({ available: true, backend: 'gnome_libsecret' }))

vi.mock('electron', () => {
  const xor = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a))
  return {
    safeStorage: {
      isAsyncEncryptionAvailable: async () => keychain.available,
      getSelectedStorageBackend: () => keychain.backend,
      encryptStringAsync: async (text: string) => xor(Buffer.from(text)),
      decryptStringAsync: async (data: Buffer) => ({ result: xor(data).toString(), shouldReEncrypt: false })
    }
  }
})

const { createKeychainApiKeyStore, readApiKey, secretsPath } = await import('./secrets')

const KEY = 'sk-ant-api03-never-shown-to-the-renderer'
let home: string
let cwd: string
const cleanup: Array<() => Promise<unknown>> = []
/** Every IPC response of the test, to prove none carries the key. */
let responses: IpcResult[]

beforeEach(async () => {
  Object.assign(keychain, { available: true, backend: 'gnome_libsecret' })
  home = await realpath(await mkdtemp(join(tmpdir(), 'swarmdesk-keys-')))
  cwd = await realpath(await mkdtemp(join(tmpdir(), 'swarmdesk-keys-work-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd })
  responses = []
  cleanup.push(
    () => rm(home, { recursive: true, force: true }),
    () => rm(cwd, { recursive: true, force: true })
  )
})
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
  // a response never carried the key
  expect(JSON.stringify(responses)).not.toContain(KEY)
})

/** The real workspace service with the keychain store, behind the real IPC handlers. */
async function open(env: NodeJS.ProcessEnv = {}) {
  const scenario = join(home, 's.yaml')
  await writeFile(scenario, 'agents:\n  team-lead:\n    - text: "ok"\n')
  const service = await WorkspaceService.start({
    cwd,
    home,
    scenario,
    env,
    apiKeys: createKeychainApiKeyStore(home, env)
  })
  cleanup.push(() => service.dispose())
  const ipcMain = new FakeIpcMain()
  const registration = registerWorkspaceIpc({
    ipcMain,
    host: service,
    origin: createAppOrigin(INDEX_HTML),
    targets: () => []
  })
  cleanup.push(async () => registration.dispose())
  return async (channel: string, payload: unknown): Promise<IpcResult> => {
    const result = (await ipcMain.invoke(channel, payload, { url: APP_URL, parent: null })) as IpcResult
    responses.push(result)
    return result
  }
}

describe('the API key in Settings over Electron IPC', () => {
  it('stores the key encrypted, reports only its status, and clears it', async () => {
    const request = await open()
    expect(await request('settings.get', {})).toMatchObject({
      ok: true,
      result: { apiKey: { source: 'none', storage: 'encrypted' } }
    })
    expect(await request('settings.setApiKey', { apiKey: KEY })).toEqual({
      ok: true,
      result: { source: 'keychain', storage: 'encrypted' }
    })
    expect(await readFile(secretsPath(home), 'utf8')).not.toContain(KEY)
    await expect(readApiKey(home)).resolves.toBe(KEY)
    expect(await request('settings.get', {})).toMatchObject({ ok: true, result: { apiKey: { source: 'keychain' } } })
    expect(await request('settings.clearApiKey', {})).toEqual({
      ok: true,
      result: { source: 'none', storage: 'encrypted' }
    })
    await expect(readApiKey(home)).resolves.toBeUndefined()
  })

  it("says the environment's key wins over a stored one", async () => {
    const request = await open({ ANTHROPIC_API_KEY: 'sk-env' })
    expect(await request('settings.setApiKey', { apiKey: KEY })).toMatchObject({
      ok: true,
      result: { source: 'environment' }
    })
  })

  it.runIf(process.platform === 'linux')(
    'on basic_text shows the warning and stores only after it is accepted',
    async () => {
      keychain.backend = 'basic_text'
      const request = await open()
      expect(await request('settings.get', {})).toMatchObject({
        ok: true,
        result: { apiKey: { storage: 'plainText', warning: expect.stringMatching(/NOT encrypted/) } }
      })
      expect(await request('settings.setApiKey', { apiKey: KEY })).toMatchObject({
        ok: false,
        error: {
          name: 'IpcRequestError',
          message: expect.stringMatching(/^Not stored\..*NOT encrypted.*Accept this warning/)
        }
      })
      await expect(readFile(secretsPath(home))).rejects.toMatchObject({ code: 'ENOENT' })
      expect(await request('settings.setApiKey', { apiKey: KEY, acceptUnencrypted: true })).toMatchObject({
        ok: true,
        result: { source: 'keychain', storage: 'plainText' }
      })
      await expect(readApiKey(home)).resolves.toBe(KEY)
    }
  )

  it('refuses to store when safeStorage cannot encrypt, accepted warning or not', async () => {
    keychain.available = false
    const request = await open()
    expect(await request('settings.get', {})).toMatchObject({
      ok: true,
      result: { apiKey: { storage: 'unavailable', warning: expect.stringMatching(/keychain is not available/) } }
    })
    expect(await request('settings.setApiKey', { apiKey: KEY, acceptUnencrypted: true })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/cannot be stored safely/) }
    })
    await expect(readFile(secretsPath(home))).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('rejects a malformed key request before the service sees it', async () => {
    const request = await open()
    expect(await request('settings.setApiKey', { apiKey: KEY, extra: 1 })).toMatchObject({
      ok: false,
      error: { name: 'InvalidPayloadError' }
    })
    expect(await request('settings.setApiKey', { apiKey: 42 })).toMatchObject({
      ok: false,
      error: { name: 'InvalidPayloadError' }
    })
  })
})
