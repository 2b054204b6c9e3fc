import { safeStorage } from 'electron'
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import type { ApiKeyStatus } from '../../shared/settings'
import type { ApiKeyStore } from '../app/settingsControl'

/**
 * The API key at rest (docs/ui.md#the-workspace-ui): encrypted with Electron safeStorage (the OS keychain) into
 * `<home>/secrets.json`. Only main reads it, and only to hand it to the runtime as
 * ANTHROPIC_API_KEY; no IPC channel returns it to the renderer.
 *
 * Uses safeStorage's async API: the synchronous `encryptString`/`decryptString` are deprecated
 * since Electron 45 and the async ones decrypt what they encrypted.
 */

const SecretsFileSchema = z.object({
  schemaVersion: z.literal(1),
  /** base64 of `safeStorage.encryptStringAsync(key)`. */
  anthropicApiKey: z.string().optional(),
  /**
   * True when the key was stored under Linux's `basic_text` backend after the person accepted
   * that it is not encrypted; such a key is read back only while that backend is still the one.
   */
  acceptedUnencrypted: z.boolean().optional()
})
type SecretsFile = z.infer<typeof SecretsFileSchema>

/** Secrets cannot be stored or read safely on this machine; the message says what to do. */
export class SecretStorageUnavailableError extends Error {
  override readonly name = 'SecretStorageUnavailableError'
}

/** Storing under `basic_text` was asked without the person accepting the warning first. */
export class UnencryptedStorageNotAcceptedError extends Error {
  override readonly name = 'UnencryptedStorageNotAcceptedError'
}

/** The warning shown, and to be accepted, before a key is stored under `basic_text` (issue 8). */
export const BASIC_TEXT_WARNING =
  'No OS keychain was found (Electron fell back to its basic_text backend): the API key would be stored in secrets.json obfuscated with a fixed key, NOT encrypted — anyone who can read your files can read it. Unlock or install a keyring (gnome-keyring, KWallet) for real encryption, or set ANTHROPIC_API_KEY in the environment.'

const UNAVAILABLE_MESSAGE =
  'The OS keychain is not available, so the API key cannot be stored safely. Unlock or install a keyring (e.g. gnome-keyring or KWallet), or set ANTHROPIC_API_KEY in the environment instead.'

/** `<home>/secrets.json`. */
export function secretsPath(home: string): string {
  return join(home, 'secrets.json')
}

/**
 * What storing a key does on this machine: `encrypted` with the OS keychain; `plainText` on
 * Linux's `basic_text` fallback (a hard-coded key: obfuscation, not storage "with the OS
 * keychain", so only after the person accepts {@link BASIC_TEXT_WARNING}); `unavailable` when
 * safeStorage cannot encrypt at all.
 */
export async function keyStorageKind(): Promise<'encrypted' | 'plainText' | 'unavailable'> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) return 'unavailable'
  const backend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : undefined
  return backend === 'basic_text' ? 'plainText' : 'encrypted'
}

async function readSecretsFile(home: string): Promise<SecretsFile> {
  let text: string
  try {
    text = await readFile(secretsPath(home), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { schemaVersion: 1 }
    throw error
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new Error(`${secretsPath(home)} is not JSON; delete it and store the API key again in Settings.`)
  }
  const parsed = SecretsFileSchema.safeParse(json)
  if (!parsed.success) throw new Error(`${secretsPath(home)} is not a Swarmdesk secrets file: ${parsed.error.message}`)
  return parsed.data
}

/** Writes the file to a temp name and renames it, so a crash leaves the old or the new file, never half of one. Mode 0600. */
async function writeSecretsFile(home: string, next: SecretsFile): Promise<void> {
  await mkdir(home, { recursive: true })
  const tmp = `${secretsPath(home)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 })
  await rename(tmp, secretsPath(home))
}

/**
 * Encrypts `apiKey` and stores it, replacing any previous key.
 * @param options.acceptUnencrypted the person accepted {@link BASIC_TEXT_WARNING}; required on `basic_text`.
 * @throws SecretStorageUnavailableError when safeStorage cannot encrypt at all (nothing written).
 * @throws UnencryptedStorageNotAcceptedError on `basic_text` without acceptance (nothing written).
 */
export async function storeApiKey(
  home: string,
  apiKey: string,
  options: { acceptUnencrypted?: boolean } = {}
): Promise<void> {
  const kind = await keyStorageKind()
  if (kind === 'unavailable') throw new SecretStorageUnavailableError(UNAVAILABLE_MESSAGE)
  if (kind === 'plainText' && options.acceptUnencrypted !== true)
    throw new UnencryptedStorageNotAcceptedError(
      `Not stored. ${BASIC_TEXT_WARNING} Accept this warning to store it anyway.`
    )
  const current = await readSecretsFile(home)
  const encrypted = await safeStorage.encryptStringAsync(apiKey)
  const { acceptedUnencrypted: _old, ...rest } = current
  await writeSecretsFile(home, {
    ...rest,
    schemaVersion: 1,
    anthropicApiKey: encrypted.toString('base64'),
    ...(kind === 'plainText' ? { acceptedUnencrypted: true } : {})
  })
}

/** Removes the stored API key (other entries of the file stay). Nothing happens when none is stored. */
export async function clearApiKey(home: string): Promise<void> {
  const current = await readSecretsFile(home)
  if (current.anthropicApiKey === undefined) return
  const { anthropicApiKey: _key, acceptedUnencrypted: _accepted, ...rest } = current
  await writeSecretsFile(home, rest)
}

/** True when a key is stored (without decrypting it). */
export async function hasStoredApiKey(home: string): Promise<boolean> {
  return (await readSecretsFile(home)).anthropicApiKey !== undefined
}

/**
 * The stored API key, or undefined when none is stored.
 * @throws SecretStorageUnavailableError when a key is stored but cannot be decrypted safely here
 *   (no encryption; or `basic_text` for a key that was stored encrypted or without acceptance).
 * @throws Error when the file is malformed or the key cannot be decrypted (another user or machine).
 */
export async function readApiKey(home: string): Promise<string | undefined> {
  const file = await readSecretsFile(home)
  if (file.anthropicApiKey === undefined) return undefined
  const kind = await keyStorageKind()
  if (kind === 'unavailable' || (kind === 'plainText' && file.acceptedUnencrypted !== true))
    throw new SecretStorageUnavailableError(UNAVAILABLE_MESSAGE)
  const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(Buffer.from(file.anthropicApiKey, 'base64'))
  // The keychain rotated its key: store the key again under the new one; reading still succeeds if that fails.
  if (shouldReEncrypt)
    await storeApiKey(home, result, { acceptUnencrypted: file.acceptedUnencrypted }).catch(() => undefined)
  return result
}

/**
 * The app's {@link ApiKeyStore} (docs/ui.md#the-workspace-ui): the key in `<home>/secrets.json` through safeStorage.
 * `env` is the environment the app was started with: its ANTHROPIC_API_KEY wins over a stored
 * key. Statuses never hold the key; nothing here logs it.
 */
export function createKeychainApiKeyStore(home: string, env: NodeJS.ProcessEnv): ApiKeyStore {
  const status = async (): Promise<ApiKeyStatus> => {
    const kind = await keyStorageKind()
    const stored = await hasStoredApiKey(home)
    return {
      source: env.ANTHROPIC_API_KEY ? 'environment' : stored ? 'keychain' : 'none',
      storage: kind,
      ...(kind === 'plainText'
        ? { warning: BASIC_TEXT_WARNING }
        : kind === 'unavailable'
          ? { warning: UNAVAILABLE_MESSAGE }
          : {})
    }
  }
  return {
    status,
    async set(apiKey, acceptUnencrypted) {
      await storeApiKey(home, apiKey, { acceptUnencrypted })
      return status()
    },
    async clear() {
      await clearApiKey(home)
      return status()
    }
  }
}
