import { useState } from 'react'
import type { PendingPermission } from '../../../../shared/ipc'
import { rawJson, readableInput } from './readableInput'

/** A permission request's input made readable, with the raw JSON on demand. */
export function InputView({ permission }: { permission: PendingPermission }) {
  const [raw, setRaw] = useState(false)
  const view = readableInput(permission)
  return (
    <div className="perm-input">
      {raw ? <pre className="perm-json">{rawJson(permission.input)}</pre> : <Readable view={view} />}
      {view.kind !== 'json' || raw ? (
        <button type="button" className="link-button" onClick={() => setRaw(!raw)}>
          {raw ? 'readable' : 'raw JSON'}
        </button>
      ) : null}
    </div>
  )
}

function Readable({ view }: { view: ReturnType<typeof readableInput> }) {
  switch (view.kind) {
    case 'command':
      return (
        <>
          {view.description ? <div className="perm-desc">{view.description}</div> : null}
          <pre className="perm-command">
            <span className="prompt-sign">$ </span>
            {view.command}
          </pre>
          {view.cwd ? (
            <div className="perm-cwd" data-testid="perm-cwd">
              <span className="perm-label">in</span> <code>{view.cwd}</code>
            </div>
          ) : null}
        </>
      )
    case 'diff':
      return (
        <>
          {view.path ? <div className="perm-path mono">{view.path}</div> : null}
          <pre className="perm-diff">
            {view.lines.map((l, i) => (
              <div key={i} className={`diff-${l.kind}`}>
                {l.text || ' '}
              </div>
            ))}
          </pre>
        </>
      )
    case 'plan':
      return (
        <pre className="perm-plan" data-testid="perm-plan">
          {view.lines.map((l, i) => (
            <div key={i} className={`plan-${l.kind}`}>
              {l.text || ' '}
            </div>
          ))}
        </pre>
      )
    case 'path':
      return (
        <div className="perm-path">
          <span className="perm-label">{view.label}</span> <code>{view.value}</code>
          {view.extra ? <span className="perm-extra"> {view.extra}</span> : null}
        </div>
      )
    case 'json':
      return <pre className="perm-json">{view.json}</pre>
  }
}
