import { NO_API_KEY_HINTS, type ModelConnection } from '../runtime/runner'
import type { ModelAccess } from '../../shared/ipc'
import { IpcRequestError } from './requestError'

/** Where a person adds an API key to this workspace: Settings (the app's keychain) or the environment (the web host). */
export type KeyFix = keyof typeof NO_API_KEY_HINTS

/**
 * Whether the workspace's model can be reached, as the UI shows it (issue 29: a first run opens
 * without an API key; everything that needs no model keeps working). The scripted model needs no key.
 */
export function modelAccessOf(model: ModelConnection, fix: KeyFix): ModelAccess {
  if (model.scripted || model.client.hasApiKey) return {}
  return { noApiKey: { message: NO_API_KEY_HINTS[fix], fix } }
}

/** The notice when the key changed while the workspace runs. */
export function keyChangeNotice(access: ModelAccess): { level: 'info' | 'warning'; message: string } {
  return access.noApiKey
    ? { level: 'warning', message: `The API key was removed. ${access.noApiKey.message}` }
    : { level: 'info', message: 'An API key is set: the leader can reach the model now.' }
}

/**
 * Refuses what needs a model while there is no API key (a first run), with the way to add one,
 * so a prompt typed then gets an answer instead of a silent failure.
 * @throws IpcRequestError naming what waits for the key (`what`) and where to set it.
 */
export function requireModel(model: ModelConnection, fix: KeyFix, what: string): void {
  const { noApiKey } = modelAccessOf(model, fix)
  if (noApiKey) throw new IpcRequestError(`${what} needs a model. ${noApiKey.message}`)
}
