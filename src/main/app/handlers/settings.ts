import type { settingsChannels } from '../../../shared/ipc'
import { refusing } from '../requestError'
import { SettingsRefusedError, type SettingsControl } from '../settingsControl'
import type { FeatureHandlers, HandlerContext } from './context'

/**
 * The Settings view's requests (src/shared/ipc/settings.ts), answered by settingsControl.ts; a
 * refusal becomes the request's error, shown in the view. The views carry the values that apply
 * now (liveSettings.ts): the reload after a change has run by then.
 */
export function settingsHandlers(ctx: HandlerContext): FeatureHandlers<typeof settingsChannels> {
  const act = <T>(work: (control: SettingsControl) => Promise<T>): Promise<T> =>
    refusing([SettingsRefusedError], () => work(ctx.settingsControl))
  return {
    'settings.get': async () => ctx.settings.withEffective(await act((s) => s.view())),
    'settings.update': async (payload) => ctx.settings.withEffective(await act((s) => s.update(payload.values))),
    'settings.trust': async (payload) => ctx.settings.withEffective(await act((s) => s.setTrust(payload.trusted))),
    'settings.setApiKey': (payload) => act((s) => s.setApiKey(payload.apiKey, payload.acceptUnencrypted === true)),
    'settings.clearApiKey': () => act((s) => s.clearApiKey()),
    'settings.setRunApiKey': (payload) => act((s) => s.setRunApiKey(payload.apiKey))
  }
}
