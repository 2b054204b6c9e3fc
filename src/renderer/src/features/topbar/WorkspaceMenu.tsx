import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import type { RecentWorkspace, WorkspacesMenu } from '../../../../shared/ipc'
import { connectedApi } from '../../store/commands'
import { errorText } from '../../lib/errorText'

/** The last segment of a path: the workspace folder's own name. */
export function folderName(path: string): string {
  return (
    path
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() || path
  )
}

/** What the menu shows while open. */
type MenuState = { kind: 'closed' } | { kind: 'loading' } | { kind: 'ready'; menu: WorkspacesMenu }

/**
 * The top bar's workspace folder as a menu (docs/ui.md#the-workspace-ui "open a folder (recent list)"): the current
 * folder's path, the recent folders (click to open; a missing one can be removed), and "Open
 * folder…" — main's folder picker in the app, a typed path on the web host (absolute or `~/…`) (main checks
 * it). In the app a folder opens in its own window (an open one is focused); on the web host in a
 * new tab. Keyboard: Enter/Space/ArrowDown open it, arrows and Home/End move, Escape closes and
 * returns focus to the button.
 */
export function WorkspaceMenu({ cwd }: { cwd: string }) {
  const [state, setState] = useState<MenuState>({ kind: 'closed' })
  const [typing, setTyping] = useState(false)
  const [path, setPath] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>()
  /** A tab the browser did not let the page open: offered as a link instead. */
  const [blockedUrl, setBlockedUrl] = useState<{ url: string; name: string } | undefined>()
  const button = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement>(null)
  const menuId = useId()
  const pendingFocus = useRef<'first' | 'last' | 'none'>('none')
  const open = state.kind !== 'closed'

  // windows and tabs of several workspaces are told apart by their title
  useEffect(() => {
    document.title = `${folderName(cwd)} — Swarmdesk`
  }, [cwd])

  const load = useCallback(async () => {
    try {
      setState({ kind: 'ready', menu: await connectedApi().request('workspaces.menu', {}) })
    } catch (err) {
      setState({ kind: 'ready', menu: { current: cwd, recent: [], picker: 'path' } })
      setError(errorText(err))
    }
  }, [cwd])

  const show = (focusFirst: boolean) => {
    setState({ kind: 'loading' })
    setError(undefined)
    setBlockedUrl(undefined)
    setTyping(false)
    pendingFocus.current = focusFirst ? 'first' : 'none'
    void load()
  }
  const close = (refocus: boolean) => {
    setState({ kind: 'closed' })
    setTyping(false)
    if (refocus) button.current?.focus()
  }

  // focus the first (or last) item once the menu has its content (keyboard opening)
  useEffect(() => {
    if (state.kind !== 'ready' || pendingFocus.current === 'none') return
    const items = menuItems(menu.current)
    ;(pendingFocus.current === 'first' ? items[0] : items.at(-1))?.focus()
    pendingFocus.current = 'none'
  }, [state])

  // a click outside closes the menu
  useEffect(() => {
    if (!open) return
    const onDown = (e: PointerEvent) => {
      const target = e.target as Node
      if (!menu.current?.contains(target) && !button.current?.contains(target)) close(false)
    }
    document.addEventListener('pointerdown', onDown)
    return () => document.removeEventListener('pointerdown', onDown)
  }, [open])

  const openFolder = async (target: string | undefined) => {
    setBusy(true)
    setError(undefined)
    setBlockedUrl(undefined)
    try {
      const result = await connectedApi().request('workspaces.open', target === undefined ? {} : { path: target })
      if (!result.opened) return
      if (result.url) {
        const tab = window.open(result.url, '_blank')
        if (!tab) {
          setBlockedUrl({ url: result.url, name: folderName(result.path) })
          return
        }
        tab.opener = null
      }
      setPath('')
      close(false)
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }

  const forget = async (entry: RecentWorkspace) => {
    try {
      const { recent } = await connectedApi().request('workspaces.forget', { path: entry.path })
      setState((s) => (s.kind === 'ready' ? { kind: 'ready', menu: { ...s.menu, recent } } : s))
      button.current?.focus()
      pendingFocus.current = 'first'
    } catch (err) {
      setError(errorText(err))
    }
  }

  const onButtonKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      show(true)
      if (e.key === 'ArrowUp') pendingFocus.current = 'last'
    }
  }

  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      return close(true)
    }
    if ((e.target as HTMLElement).tagName === 'INPUT') return
    const items = menuItems(menu.current)
    const at = items.indexOf(document.activeElement as HTMLElement)
    const move = (i: number) => items[(i + items.length) % items.length]?.focus()
    if (e.key === 'ArrowDown') move(at + 1)
    else if (e.key === 'ArrowUp') move(at < 0 ? -1 : at - 1)
    else if (e.key === 'Home') move(0)
    else if (e.key === 'End') move(-1)
    else if (e.key === 'Tab') return close(false)
    else return
    e.preventDefault()
  }

  const ready = state.kind === 'ready' ? state.menu : undefined
  return (
    <span className="topbar-folder workspace-menu">
      <button
        ref={button}
        type="button"
        className="workspace-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Workspace ${folderName(cwd)}: open another folder or a recent one`}
        title={cwd}
        onClick={() => (open ? close(false) : show(false))}
        onKeyDown={onButtonKey}
      >
        <b>{folderName(cwd)}</b>
        <span className="cwd mono">{cwd}</span>
        <span className="workspace-menu-caret" aria-hidden="true">
          ▾
        </span>
      </button>
      {open ? (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label="Workspaces"
          className="workspace-menu-popup"
          onKeyDown={onMenuKey}
        >
          <div className="workspace-menu-current" role="none">
            <span className="workspace-menu-label">This workspace</span>
            <span className="mono" data-testid="workspace-menu-current">
              {ready?.current ?? cwd}
            </span>
          </div>
          <div className="workspace-menu-section" role="group" aria-label="Recent folders">
            <span className="workspace-menu-label" aria-hidden="true">
              Recent
            </span>
            {state.kind === 'loading' ? <span className="workspace-menu-note">Loading…</span> : null}
            {ready && ready.recent.length === 0 && !ready.problem ? (
              <span className="workspace-menu-note">No recent folders yet.</span>
            ) : null}
            {ready?.problem ? (
              <span className="workspace-menu-note workspace-menu-problem" role="alert">
                {ready.problem}
              </span>
            ) : null}
            {ready?.recent.map((entry) => {
              const current = entry.path === ready.current
              return entry.missing ? (
                <span key={entry.path} className="workspace-menu-row" role="none">
                  <span className="workspace-menu-item missing" title={`${entry.path} no longer exists`}>
                    <b>{entry.name}</b> <span className="mono">{entry.path}</span> <em>missing</em>
                  </span>
                  <button
                    type="button"
                    role="menuitem"
                    className="workspace-menu-remove"
                    aria-label={`Remove ${entry.name} (missing) from the recent list`}
                    onClick={() => void forget(entry)}
                  >
                    Remove
                  </button>
                </span>
              ) : (
                <button
                  key={entry.path}
                  type="button"
                  role="menuitem"
                  className="workspace-menu-item"
                  aria-current={current ? 'true' : undefined}
                  disabled={busy}
                  title={entry.path}
                  onClick={() => (current ? close(true) : void openFolder(entry.path))}
                >
                  <b>{entry.name}</b> <span className="mono">{entry.path}</span>
                  {current ? <em>this {window.swarmdesk ? 'window' : 'tab'}</em> : null}
                </button>
              )
            })}
          </div>
          <div className="workspace-menu-section" role="none">
            {typing ? (
              <form
                className="workspace-menu-path"
                onSubmit={(e) => {
                  e.preventDefault()
                  void openFolder(path)
                }}
              >
                <label className="workspace-menu-label" htmlFor={`${menuId}-path`}>
                  Folder to open (absolute path, or ~/… for your home folder)
                </label>
                <input
                  id={`${menuId}-path`}
                  className="mono"
                  value={path}
                  autoFocus
                  spellCheck={false}
                  placeholder="~/project or /home/me/project"
                  onChange={(e) => setPath(e.target.value)}
                />
                <button type="submit" className="btn btn-small" disabled={busy || path.trim() === ''}>
                  {busy ? 'Opening…' : 'Open'}
                </button>
              </form>
            ) : (
              <button
                type="button"
                role="menuitem"
                className="workspace-menu-item workspace-menu-open"
                disabled={busy || !ready}
                onClick={() => (ready?.picker === 'dialog' ? void openFolder(undefined) : setTyping(true))}
              >
                Open folder…
              </button>
            )}
          </div>
          {error ? (
            <div className="workspace-menu-error" role="alert">
              {error}
            </div>
          ) : null}
          {blockedUrl ? (
            <div className="workspace-menu-note" role="status">
              The browser blocked the new tab:{' '}
              <a href={blockedUrl.url} target="_blank" rel="noopener">
                open {blockedUrl.name} in a new tab
              </a>
            </div>
          ) : null}
        </div>
      ) : null}
    </span>
  )
}

/** The menu's focusable items, in order. */
function menuItems(root: HTMLElement | null): HTMLElement[] {
  return root ? [...root.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled])')] : []
}
