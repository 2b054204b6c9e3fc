import { useAppStore } from '../../store/store'
import { settingsCommands } from './settingsStore'

/**
 * The workspace's "no API key" state (issue 29: a first run opens without a key): above the panes,
 * it says that the leader cannot reach a model and how to add a key — Settings in the app (stored
 * in the OS keychain), or the environment of `swarmdesk serve` or a key for this run only in the
 * web host — with a button that opens Settings. Everything that needs no model keeps working
 * meanwhile; the banner goes as soon as main pushes that a key is set.
 */
export function NoApiKeyBanner() {
  const noApiKey = useAppStore((s) => s.workspace.modelAccess.noApiKey)
  if (!noApiKey) return null
  return (
    <div className="no-api-key" role="alert" data-testid="no-api-key" data-fix={noApiKey.fix}>
      <b>No API key.</b> <span data-testid="no-api-key-message">{noApiKey.message}</span>{' '}
      <button type="button" className="btn btn-small" onClick={() => void settingsCommands.open()}>
        Open Settings
      </button>
    </div>
  )
}
