import { z } from 'zod'
import { ApiKeyStatusSchema, SettingsPatchSchema, SettingsViewSchema } from '../settings'
import { Empty } from './common'

/** The Settings view's requests (docs/permissions.md#permissions, docs/ui.md#the-workspace-ui, docs/storage.md#layout; src/shared/settings.ts). */
export const settingsChannels = {
  /** The user settings, the API key's status (never the key), the data directory and project trust. */
  'settings.get': { request: Empty, response: SettingsViewSchema },
  /**
   * Changes the user settings file `<home>/settings.json`: each key set, or removed with `null`.
   * Every rule is checked with the runtime's rule parser first; an invalid rule (or any invalid
   * value) is refused with a message naming it, and nothing is saved. Keys the view does not know
   * are kept. Returns the view after the change.
   */
  'settings.update': { request: z.object({ values: SettingsPatchSchema }).strict(), response: SettingsViewSchema },
  /**
   * Grants (`true`) or revokes (`false`) trust of the open workspace in `<home>/trusted.json`
   * (docs/permissions.md#permissions), then reloads the settings: the project's hooks run from then on (or stop).
   */
  'settings.trust': { request: z.object({ trusted: z.boolean() }).strict(), response: SettingsViewSchema },
  /**
   * Stores the API key with the OS keychain (Electron safeStorage; the app only: the web host
   * refuses). On Linux's `basic_text` backend the key is not encrypted and is stored only with
   * `acceptUnencrypted: true` after the person saw that warning. The response never holds the key.
   */
  'settings.setApiKey': {
    request: z
      .object({
        apiKey: z.string().trim().min(1, 'the API key is empty').max(1000),
        acceptUnencrypted: z.boolean().optional()
      })
      .strict(),
    response: ApiKeyStatusSchema
  },
  /** Removes the stored API key (the app only). */
  'settings.clearApiKey': { request: Empty, response: ApiKeyStatusSchema },
  /**
   * A key for this run only (the web host, whose key otherwise comes from the environment): kept
   * in the process's memory, never written to disk, never answered back; the leader starts with it at once.
   */
  'settings.setRunApiKey': {
    request: z.object({ apiKey: z.string().trim().min(1, 'the API key is empty').max(1000) }).strict(),
    response: ApiKeyStatusSchema
  }
} as const
