import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import type { SessionListEntry } from '../../../../shared/ipc'
import { connectedApi } from '../../store/commands'
import { selectBusy } from '../../store/selectors'
import { useAppStore } from '../../store/store'
import { errorText, restoreCommands } from './commands'
import './restore.css'

/** What the menu shows while open. */
type MenuState = { kind: 'closed' } | { kind: 'loading' } | { kind: 'ready'; sessions: SessionListEntry[] }

/** "5 min ago", "yesterday 14:02", or the date: when a session was last active, as a person reads it. */
export function whenText(iso: string, now = Date.now()): string {
  const t = Date.parse(iso)
  if (Number.isNaN(t)) return iso
  const minutes = Math.round((now - t) / 60_000)
  if (minutes < 1) return 'just now'
  if (minutes < 60) return `${minutes} min ago`
  if (minutes < 24 * 60) return `${Math.round(minutes / 60)} h ago`
  return new Date(t).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit'
  })
}

/**
 * The top bar's Sessions menu (docs/ui.md#restore): the workspace's sessions, most recently active
 * first — each with its first prompt, its team and when it was last active, the open one marked —
 * and, for another one, Open: this session ends as New session ends it (its agents stop, its files
 * stay) and the chosen one reopens with its panes, its team and its board; the page then reloads.
 * A session another Swarmdesk process has open cannot be opened here. Disabled while the leader
 * works. Keyboard: arrows move, Escape closes and returns focus to the button.
 */
export function SessionsMenu() {
  const busy = useAppStore(selectBusy)
  const connected = useAppStore((s) => s.connection.status === 'open')
  const [state, setState] = useState<MenuState>({ kind: 'closed' })
  const [chosen, setChosen] = useState<SessionListEntry | undefined>()
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | undefined>()
  const button = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement>(null)
  const menuId = useId()
  const open = state.kind !== 'closed'

  const show = async (): Promise<void> => {
    setState({ kind: 'loading' })
    setChosen(undefined)
    setError(undefined)
    try {
      const { sessions } = await connectedApi().request('sessions.list', {})
      setState({ kind: 'ready', sessions })
    } catch (err) {
      setState({ kind: 'ready', sessions: [] })
      setError(errorText(err))
    }
  }
  const close = (refocus: boolean): void => {
    setState({ kind: 'closed' })
    setChosen(undefined)
    if (refocus) button.current?.focus()
  }
  const reopen = async (entry: SessionListEntry): Promise<void> => {
    setPending(true)
    setError(undefined)
    try {
      await restoreCommands.openSession(entry.sessionId)
    } catch (err) {
      setError(errorText(err))
      setPending(false)
    }
  }

  // a click outside closes the menu, and so does Escape with the focus still on its button
  useEffect(() => {
    if (!open) return
    const onDown = (e: PointerEvent): void => {
      const target = e.target as Node
      if (!menu.current?.contains(target) && !button.current?.contains(target)) close(false)
    }
    const onKey = (e: globalThis.KeyboardEvent): void => {
      if (e.key !== 'Escape' || e.defaultPrevented || document.activeElement !== button.current) return
      e.preventDefault()
      close(true)
    }
    document.addEventListener('pointerdown', onDown)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onDown)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      return close(true)
    }
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled])') ?? [])]
    const at = items.indexOf(document.activeElement as HTMLElement)
    if (e.key === 'ArrowDown') items[(at + 1) % items.length]?.focus()
    else if (e.key === 'ArrowUp') items[(at - 1 + items.length) % items.length]?.focus()
    else return
    e.preventDefault()
  }

  const sessions = state.kind === 'ready' ? state.sessions : []
  return (
    <span className="sessions-menu">
      <button
        ref={button}
        type="button"
        className="btn btn-small"
        data-testid="sessions-menu"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={!connected}
        title="This folder's sessions: reopen an earlier one with its panes and team"
        onClick={() => (open ? close(false) : void show())}
      >
        Sessions
        <span className="sessions-caret" aria-hidden="true">
          {' '}
          ▾
        </span>
      </button>
      {open ? (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label="Sessions"
          className="sessions-menu-popup"
          onKeyDown={onMenuKey}
        >
          <span className="sessions-menu-label">Sessions of this folder</span>
          {state.kind === 'loading' ? <span className="sessions-menu-note">Loading…</span> : null}
          {state.kind === 'ready' && sessions.length === 0 && !error ? (
            <span className="sessions-menu-note">No sessions yet.</span>
          ) : null}
          {sessions.map((entry) => {
            const blocked = entry.openElsewhere !== undefined
            return (
              <button
                key={entry.sessionId}
                type="button"
                role="menuitem"
                className={`sessions-menu-item${chosen?.sessionId === entry.sessionId ? ' chosen' : ''}`}
                data-testid="session-item"
                data-session-id={entry.sessionId}
                aria-current={entry.current ? 'true' : undefined}
                disabled={pending || blocked}
                title={
                  blocked
                    ? `Open in another Swarmdesk process (pid ${entry.openElsewhere}): close it there first`
                    : entry.sessionId
                }
                onClick={() => (entry.current ? close(true) : setChosen(entry))}
              >
                <span className="sessions-menu-prompt">{entry.firstPrompt ?? <em>no prompt yet</em>}</span>
                <span className="sessions-menu-meta">
                  {entry.team ? (
                    <span className="sessions-menu-team">
                      team <b>{entry.team}</b>
                    </span>
                  ) : null}
                  <span>active {whenText(entry.lastActivity)}</span>
                  <span className="mono">{entry.sessionId.slice(0, 8)}</span>
                  {entry.current ? <em>this session</em> : blocked ? <em>open elsewhere</em> : null}
                </span>
              </button>
            )
          })}
          {chosen ? (
            <div className="sessions-menu-confirm" role="group" aria-label="Open this session?">
              <span>
                {busy
                  ? 'The leader is working: stop it before opening another session.'
                  : 'Open it? This session ends (its agents stop; everything stays on disk) and the chosen one reopens.'}
              </span>
              <span className="sessions-menu-actions">
                <button
                  type="button"
                  className="btn btn-small"
                  disabled={pending || busy}
                  onClick={() => void reopen(chosen)}
                >
                  {pending ? 'Opening…' : 'Open session'}
                </button>
                <button type="button" className="btn btn-small" disabled={pending} onClick={() => setChosen(undefined)}>
                  Cancel
                </button>
              </span>
            </div>
          ) : null}
          {error ? (
            <div className="sessions-menu-error" role="alert">
              {error}
            </div>
          ) : null}
        </div>
      ) : null}
    </span>
  )
}
