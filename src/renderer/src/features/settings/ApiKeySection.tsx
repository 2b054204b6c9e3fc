import { useState } from 'react'
import type { ApiKeyStatus } from '../../../../shared/settings'
import { Applies } from './Applies'
import { settingsCommands, useSettings } from './settingsStore'

const SOURCE_TEXT: Record<ApiKeyStatus['source'], string> = {
  environment: 'from the ANTHROPIC_API_KEY environment variable (it wins over a stored key)',
  keychain: 'stored in the OS keychain',
  run: 'entered here for this run only (kept in memory, never written to disk)',
  none: 'none'
}

/**
 * The API key (docs/ui.md#the-workspace-ui): its status only — the key never comes back from main. In the app a
 * person may store or clear it; on Linux's basic_text backend the warning must be accepted first;
 * where encryption is unavailable, or in the web host, storing is not offered and the view says why.
 */
export function ApiKeySection({ status }: { status: ApiKeyStatus }) {
  const busy = useSettings((s) => s.busy)
  const [key, setKey] = useState('')
  const [accepted, setAccepted] = useState(false)
  const canStore = status.storage === 'encrypted' || status.storage === 'plainText'
  // the web host: no keychain, but a key for this run only when the environment gives none
  const canUseForRun = status.storage === 'environmentOnly' && status.source !== 'environment'
  const store = async (): Promise<void> => {
    if (await settingsCommands.setApiKey(key, accepted)) setKey('')
  }
  return (
    <fieldset className="settings-group" data-testid="settings-api-key">
      <legend>
        API key <Applies setting="apiKey" />
      </legend>
      <p>
        Key: <b data-testid="api-key-source">{SOURCE_TEXT[status.source]}</b>
      </p>
      {status.warning ? (
        <p
          className={status.storage === 'plainText' ? 'settings-warning' : 'muted'}
          role={status.storage === 'plainText' ? 'alert' : undefined}
          data-testid="api-key-warning"
        >
          {status.warning}
        </p>
      ) : null}
      {canStore ? (
        <div className="settings-row">
          <input
            type="password"
            autoComplete="off"
            aria-label="API key"
            placeholder="sk-ant-…"
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
          {status.storage === 'plainText' ? (
            <label className="settings-check">
              <input type="checkbox" checked={accepted} onChange={(e) => setAccepted(e.target.checked)} /> I understand
              it is stored without encryption
            </label>
          ) : null}
          <button
            type="button"
            className="btn btn-small"
            disabled={busy || key.trim() === '' || (status.storage === 'plainText' && !accepted)}
            onClick={() => void store()}
          >
            Store key
          </button>
          {status.source === 'keychain' ? (
            <button
              type="button"
              className="btn btn-small"
              disabled={busy}
              onClick={() => void settingsCommands.clearApiKey()}
            >
              Clear stored key
            </button>
          ) : null}
        </div>
      ) : null}
      {canUseForRun ? (
        <div className="settings-row">
          <input
            type="password"
            autoComplete="off"
            aria-label="API key for this run"
            placeholder="sk-ant-…"
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
          <button
            type="button"
            className="btn btn-small"
            disabled={busy || key.trim() === ''}
            onClick={() => void settingsCommands.setRunApiKey(key).then((ok) => ok && setKey(''))}
          >
            Use for this run
          </button>
        </div>
      ) : null}
    </fieldset>
  )
}
