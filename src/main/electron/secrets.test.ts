import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

/** A reversible stand-in for the OS keychain: XOR with a key, so the file never holds the plain text. */
const keychain = vi.hoisted(() => ({ available: true, backend: 'gnome_libsecret', rotated: false, encryptions: 0 }))

vi.mock('electron', () => {
  const xor = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a))
  return {
    safeStorage: {
      isAsyncEncryptionAvailable: async () => keychain.available,
      getSelectedStorageBackend: () => keychain.backend,
      encryptStringAsync: async (text: string) => {
        keychain.encryptions++
        return xor(Buffer.from(`v1:${text}`))
      },
      decryptStringAsync: async (data: Buffer) => ({
        result: xor(data).toString().replace(/^v1:/, ''),
        shouldReEncrypt: keychain.rotated
      })
    }
  }
})

const {
  clearApiKey,
  readApiKey,
  secretsPath,
  SecretStorageUnavailableError,
  storeApiKey,
  UnencryptedStorageNotAcceptedError
} = await import('./secrets')

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'swarmdesk-secrets-'))
  Object.assign(keychain, { available: true, backend: 'gnome_libsecret', rotated: false, encryptions: 0 })
})
afterEach(() => rm(home, { recursive: true, force: true }))

describe('API key storage', () => {
  it('round-trips the key through safeStorage without writing it in clear', async () => {
    await storeApiKey(home, 'sk-ant-secret-123')
    const file = await readFile(secretsPath(home), 'utf8')
    expect(file).not.toContain('sk-ant-secret-123')
    expect(JSON.parse(file)).toMatchObject({ schemaVersion: 1, anthropicApiKey: expect.any(String) })
    await expect(readApiKey(home)).resolves.toBe('sk-ant-secret-123')
  })

  it('replaces a stored key', async () => {
    await storeApiKey(home, 'first')
    await storeApiKey(home, 'second')
    await expect(readApiKey(home)).resolves.toBe('second')
  })

  it('reads no key when none is stored', async () => {
    await expect(readApiKey(home)).resolves.toBeUndefined()
  })

  it('refuses to store when encryption is unavailable, writing nothing', async () => {
    keychain.available = false
    await expect(storeApiKey(home, 'k')).rejects.toBeInstanceOf(SecretStorageUnavailableError)
    await expect(storeApiKey(home, 'k')).rejects.toThrow(/keychain is not available/)
    await expect(readFile(secretsPath(home))).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('refuses to read a stored key when encryption is unavailable', async () => {
    await storeApiKey(home, 'k')
    keychain.available = false
    await expect(readApiKey(home)).rejects.toBeInstanceOf(SecretStorageUnavailableError)
  })

  it.runIf(process.platform === 'linux')(
    "stores under Linux's basic_text fallback only after the warning is accepted",
    async () => {
      keychain.backend = 'basic_text'
      await expect(storeApiKey(home, 'k')).rejects.toBeInstanceOf(UnencryptedStorageNotAcceptedError)
      await expect(storeApiKey(home, 'k')).rejects.toThrow(/NOT encrypted/)
      await expect(readFile(secretsPath(home))).rejects.toMatchObject({ code: 'ENOENT' })
      await storeApiKey(home, 'k', { acceptUnencrypted: true })
      expect(JSON.parse(await readFile(secretsPath(home), 'utf8'))).toMatchObject({ acceptedUnencrypted: true })
      await expect(readApiKey(home)).resolves.toBe('k')
    }
  )

  it.runIf(process.platform === 'linux')(
    'does not read a key stored encrypted once the keychain fell back to basic_text',
    async () => {
      await storeApiKey(home, 'k')
      keychain.backend = 'basic_text'
      await expect(readApiKey(home)).rejects.toBeInstanceOf(SecretStorageUnavailableError)
    }
  )

  it('refuses to store when encryption is unavailable even with the warning accepted', async () => {
    keychain.available = false
    await expect(storeApiKey(home, 'k', { acceptUnencrypted: true })).rejects.toBeInstanceOf(
      SecretStorageUnavailableError
    )
  })

  it('clears the stored key, keeping the file valid', async () => {
    await storeApiKey(home, 'k')
    await clearApiKey(home)
    await expect(readApiKey(home)).resolves.toBeUndefined()
    expect(JSON.parse(await readFile(secretsPath(home), 'utf8'))).toEqual({ schemaVersion: 1 })
    await clearApiKey(home)
  })

  it('stores the key again when the keychain rotated its key', async () => {
    await storeApiKey(home, 'k')
    keychain.rotated = true
    await expect(readApiKey(home)).resolves.toBe('k')
    expect(keychain.encryptions).toBe(2)
  })

  it('names the file when it is not a secrets file', async () => {
    await writeFile(secretsPath(home), JSON.stringify({ schemaVersion: 7 }))
    await expect(readApiKey(home)).rejects.toThrow(secretsPath(home))
  })
})
