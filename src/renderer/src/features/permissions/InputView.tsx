import { useState } from 'react'
import type { PendingPermission } from '../../../../shared/ipc'
import { DiffDialog } from './DiffDialog'
import { inputSummary, rawJson, readableInput, type ReadableInput } from './readableInput'

/**
 * A permission request's input made readable (see {@link readableInput}), the raw JSON behind a
 * *Raw* toggle as in the mailbox inspector; a diff has "Open diff" for a large view. `compact`
 * (the bar pinned to a pane): one line saying what the call would do, the diff's button beside it.
 */
export function InputView({ permission, compact = false }: { permission: PendingPermission; compact?: boolean }) {
  const [raw, setRaw] = useState(false)
  const [diffOpen, setDiffOpen] = useState(false)
  const view = readableInput(permission)
  const openDiff =
    view.kind === 'diff' ? (
      <button type="button" className="link-button perm-open-diff" onClick={() => setDiffOpen(true)}>
        Open diff
      </button>
    ) : null
  const dialog =
    diffOpen && view.kind === 'diff' ? (
      <DiffDialog path={view.path} lines={view.lines} onClose={() => setDiffOpen(false)} />
    ) : null
  if (compact) {
    return (
      <div className="perm-input perm-input-compact">
        {view.kind === 'command' ? (
          <pre className="perm-command perm-summary" title={view.command}>
            <span className="prompt-sign">$ </span>
            {view.command}
          </pre>
        ) : (
          <span className="perm-summary" data-testid="perm-summary" title={inputSummary(view)}>
            {inputSummary(view)}
          </span>
        )}
        {openDiff}
        {dialog}
      </div>
    )
  }
  return (
    <div className="perm-input">
      {raw ? (
        <pre className="perm-json" data-testid="perm-raw">
          {rawJson(permission.input)}
        </pre>
      ) : (
        <Readable view={view} />
      )}
      <span className="perm-input-links">
        {raw ? null : openDiff}
        <button type="button" className="link-button" aria-pressed={raw} onClick={() => setRaw(!raw)}>
          {raw ? 'Readable' : 'Raw'}
        </button>
      </span>
      {dialog}
    </div>
  )
}

function Readable({ view }: { view: ReadableInput }) {
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
    case 'spawn': {
      const s = view.spawn
      return (
        <div className="perm-spawn" data-testid="perm-spawn">
          <p className="perm-spawn-who">
            starts <b>{s.who}</b> of type <code>{s.type}</code>
            {s.mode ? (
              <>
                , in <code>{s.mode}</code> mode
              </>
            ) : null}
            {s.backend ? (
              <>
                ,{' '}
                {s.backend.startsWith('in ') ? (
                  s.backend
                ) : (
                  <>
                    on the <code>{s.backend}</code> backend
                  </>
                )}
              </>
            ) : null}
            {s.team ? <> in team {s.team}</> : null}
            {s.model ? <> with model {s.model}</> : null}
          </p>
          {s.description ? <div className="perm-desc">{s.description}</div> : null}
          <div className="perm-label">prompt</div>
          <pre className="perm-prompt">{s.prompt || '(none)'}</pre>
        </div>
      )
    }
    case 'fields':
      return (
        <div className="perm-fields" data-testid="perm-fields">
          <p className="perm-fields-title">{view.title}</p>
          <dl>
            {view.rows.map((r, i) => (
              <div key={i} className={r.block ? 'perm-field block' : 'perm-field'}>
                <dt className="perm-label">{r.label}</dt>
                <dd>{r.block ? <pre>{r.value}</pre> : r.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      )
    case 'json':
      return <pre className="perm-json">{view.json}</pre>
  }
}
