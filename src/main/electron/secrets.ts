import { safeStorage } from 'electron'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'

/**
 * The API key at rest (SPEC §11): encrypted with Electron safeStorage (the OS keychain) into
 * `<home>/secrets.json`. Only main reads it, and only to hand it to the runtime as
 * ANTHROPIC_API_KEY; no IPC channel returns it to the renderer.
 *
 * Uses safeStorage's async API: the synchronous `encryptString`/`decryptString` are deprecated
 * since Electron 45 and the async ones decrypt what they encrypted.
 */

const SecretsFileSchema = z.object({
  schemaVersion: z.literal(1),
  /** base64 of `safeStorage.encryptStringAsync(key)`. */
  anthropicApiKey: z.string().optional()
})
type SecretsFile = z.infer<typeof SecretsFileSchema>

/** Secrets cannot be stored or read safely on this machine; the message says what to do. */
export class SecretStorageUnavailableError extends Error {
  override readonly name = 'SecretStorageUnavailableError'
}

/** `<home>/secrets.json`. */
export function secretsPath(home: string): string {
  return join(home, 'secrets.json')
}

/**
 * Encryption must be backed by the OS: on Linux without a keyring Electron falls back to
 * `basic_text`, a hard-coded key, which is obfuscation, not storage "with the OS keychain".
 * @throws SecretStorageUnavailableError
 */
async function assertEncryptionAvailable(): Promise<void> {
  const available = await safeStorage.isAsyncEncryptionAvailable()
  const backend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : undefined
  if (!available || backend === 'basic_text') {
    throw new SecretStorageUnavailableError(
      'The OS keychain is not available, so the API key cannot be stored safely. Unlock or install a keyring (e.g. gnome-keyring or KWallet), or set ANTHROPIC_API_KEY in the environment instead.'
    )
  }
}

async function readSecretsFile(home: string): Promise<SecretsFile> {
  let text: string
  try {
    text = await readFile(secretsPath(home), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { schemaVersion: 1 }
    throw error
  }
  const parsed = SecretsFileSchema.safeParse(JSON.parse(text))
  if (!parsed.success) throw new Error(`${secretsPath(home)} is not a Swarmdesk secrets file: ${parsed.error.message}`)
  return parsed.data
}

/**
 * Encrypts `apiKey` and stores it, replacing any previous key; the file is written to a temp
 * name and renamed so a crash leaves the old or the new file, never half of one. Mode 0600.
 * @throws SecretStorageUnavailableError when the OS keychain is unavailable.
 */
export async function storeApiKey(home: string, apiKey: string): Promise<void> {
  await assertEncryptionAvailable()
  const current = await readSecretsFile(home)
  const encrypted = await safeStorage.encryptStringAsync(apiKey)
  const next: SecretsFile = { ...current, schemaVersion: 1, anthropicApiKey: encrypted.toString('base64') }
  await mkdir(home, { recursive: true })
  const tmp = `${secretsPath(home)}.${process.pid}.tmp`
  await writeFile(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 })
  await rename(tmp, secretsPath(home))
}

/**
 * The stored API key, or undefined when none is stored.
 * @throws SecretStorageUnavailableError when a key is stored but the OS keychain is unavailable.
 * @throws Error when the file is malformed or the key cannot be decrypted (another user or machine).
 */
export async function readApiKey(home: string): Promise<string | undefined> {
  const file = await readSecretsFile(home)
  if (file.anthropicApiKey === undefined) return undefined
  await assertEncryptionAvailable()
  const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(Buffer.from(file.anthropicApiKey, 'base64'))
  // The keychain rotated its key: store the key again under the new one; reading still succeeds if that fails.
  if (shouldReEncrypt) await storeApiKey(home, result).catch(() => undefined)
  return result
}
