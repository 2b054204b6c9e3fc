import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent
} from 'react'
import { agentColor } from '../../store/colors'
import { commands } from '../../store/commands'
import { selectAgent, selectIsTeammate, selectNestLevel, selectPaneParentId } from '../../store/selectors'
import { useAppStore } from '../../store/store'
import { LEADER_AGENT_ID } from '../../store/workspaceSlice'
import { CLAUDE_CODE_AGENT_TYPE } from '../../../../shared/ipc'
import { sendPaneInput } from './claudeInput'
import { PinnedPermissions } from '../permissions/PermissionQueue'
import { FirstScreen } from '../prompt/FirstScreen'
import { PaneContextMenu, type PaneMenuItem } from './PaneContextMenu'
import { PaneHeader, type PaneDragHandle } from './PaneHeader'
import { PaneOwner } from './PaneOwner'
import { paneRouter } from './paneRouter'
import { paneScrollbackSetting } from './scrollbackSetting'
import { PaneSearch } from './PaneSearch'
import { TeammateInput, type MessageLine } from './TeammateInput'
import type { TileSpan } from './tiledSpans'
import { needsAttention } from './stateLabel'

/** How a sortable wrapper (PaneGrid) attaches drag and drop to a pane. */
export interface PaneDrag {
  setNodeRef(node: HTMLElement | null): void
  style: CSSProperties
  handle: PaneDragHandle
  dragging: boolean
}

/** Copies text to the clipboard; false where the page may not (insecure origin, denied). */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}

/** Esc, or Ctrl+C (no Shift, Alt or Meta) while nothing is selected: the keys that interrupt an agent's turn. */
function isInterruptKey(e: KeyboardEvent, selection: string | undefined): boolean {
  if (e.altKey || e.metaKey || e.shiftKey) return false
  if (e.key === 'Escape') return !e.ctrlKey
  return e.ctrlKey && e.key.toLowerCase() === 'c' && !selection
}

/** The selected text of an input field, if any. */
function fieldSelection(el: HTMLElement): string | undefined {
  const input = el as HTMLInputElement
  if (typeof input.selectionStart !== 'number' || input.selectionStart === input.selectionEnd) return undefined
  return input.value.slice(input.selectionStart, input.selectionEnd ?? undefined)
}

/**
 * One agent's pane: a {@link PaneHeader} over a terminal owned by a {@link PaneOwner}, created
 * when the element mounts and disposed on unmount, with the agent's permission requests pinned
 * over its bottom edge. A subagent's tile is indented under its parent's, edged in the parent's
 * colour; a teammate's is a top-level tile (`pane-teammate`) with an input line that messages it.
 * The section carries `data-agent-id`, `data-parent-id` (its `parentId`, even for a teammate),
 * `data-state`, and for a teammate `data-backend`; it is marked `attention` while the agent waits
 * for a permission or a plan approval. `span` stretches a tile over more cells of the Tiled grid.
 *
 * The terminal keeps the `paneScrollbackLines` setting's lines of scrollback and follows a change at once.
 *
 * Off screen (an IntersectionObserver on the section) the owner does no rendering work. Keys
 * while focus is in the pane: Ctrl+F opens the search box, Ctrl+Shift+C copies the selection;
 * Esc, or Ctrl+C with nothing selected, interrupts the agent's turn (`agent.interrupt`); in a
 * teammate's pane, characters and pastes in the terminal area go to its message line
 * (`data-keys="message"`, which also keeps the permission shortcuts out of it). Right-click opens
 * a menu with Copy, Select all and Find.
 */
export function AgentPane({
  agentId,
  variant = 'tile',
  drag,
  span
}: {
  agentId: string
  variant?: 'main' | 'tile'
  drag?: PaneDrag
  span?: TileSpan | undefined
}) {
  const host = useRef<HTMLDivElement>(null)
  const section = useRef<HTMLElement | null>(null)
  const owner = useRef<PaneOwner | undefined>(undefined)
  const [searching, setSearching] = useState(false)
  const [menu, setMenu] = useState<{ x: number; y: number } | undefined>()
  const line = useRef<MessageLine>(null)
  useEffect(() => {
    if (!host.current) return
    const o = new PaneOwner(host.current, agentId, { source: paneRouter, scrollback: paneScrollbackSetting })
    owner.current = o
    let observer: IntersectionObserver | undefined
    if (section.current && typeof IntersectionObserver !== 'undefined') {
      observer = new IntersectionObserver((entries) => {
        const last = entries[entries.length - 1]
        if (last) o.setVisible(last.isIntersecting)
      })
      observer.observe(section.current)
    }
    return () => {
      observer?.disconnect()
      o.dispose()
      owner.current = undefined
    }
  }, [agentId])
  const agent = useAppStore(selectAgent(agentId))
  const nestedUnder = useAppStore(selectPaneParentId(agentId))
  const claudeCode = useAppStore((s) => s.workspace.agents[agentId]?.agentType === CLAUDE_CODE_AGENT_TYPE)
  // a Claude Code session's pane is its terminal: keys go to claude, not to a message line
  const teammate = useAppStore(selectIsTeammate(agentId)) && !claudeCode
  const takesKeys = claudeCode && !agent?.endStatus
  useEffect(() => {
    if (!takesKeys) return
    return owner.current?.takeInput((data) => void sendPaneInput(agentId, data))
  }, [agentId, takesKeys])
  const parentColor = useAppStore((s) => (nestedUnder ? s.workspace.agents[nestedUnder]?.color : undefined))
  const level = useAppStore(selectNestLevel(agentId))
  const maximised = useAppStore((s) => s.panes.maximised === agentId)
  const color = agent?.color ?? agentColor(agentId)
  const name = agent?.agentName ?? agentId
  const stretch: CSSProperties =
    span && (span.columns > 1 || span.rows > 1)
      ? { gridColumn: `span ${span.columns}`, gridRow: `span ${span.rows}` }
      : {}
  const style = {
    '--agent-color': color,
    '--parent-color': parentColor ?? 'transparent',
    '--nest': level,
    ...stretch,
    ...drag?.style
  } as CSSProperties
  const closeMenu = useCallback(() => setMenu(undefined), [])
  const copy = (): void => {
    const text = owner.current?.selection()
    if (text) void copyText(text)
  }
  const onKeyDown = (e: KeyboardEvent): void => {
    const mod = e.ctrlKey || e.metaKey
    const target = e.target as HTMLElement
    const inTerminal = target.closest('.pane-term') !== null
    // every key typed in a Claude Code session's terminal is claude's (Esc and Ctrl+C included)
    if (takesKeys && inTerminal) return
    const inLine = target.classList?.contains('pane-input-field') === true
    if (
      (inTerminal || inLine) &&
      !e.defaultPrevented &&
      isInterruptKey(e, inLine ? fieldSelection(target) : owner.current?.selection())
    ) {
      // Esc and Ctrl+C stop the agent's turn, as in Claude Code (a permission shortcut that took Esc first wins)
      e.preventDefault()
      e.stopPropagation()
      void commands.interruptAgent(agentId)
      return
    }
    if (teammate && inTerminal && !mod && !e.altKey && e.key.length === 1) {
      // a teammate's pane takes the keyboard: what is typed in its terminal area goes to its message line
      e.preventDefault()
      e.stopPropagation()
      line.current?.insert(e.key)
      return
    }
    if (mod && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'f') {
      // Capture phase: the terminal's own key handling must not see these.
      e.preventDefault()
      e.stopPropagation()
      setSearching(true)
    } else if (mod && e.shiftKey && e.key.toLowerCase() === 'c') {
      e.preventDefault()
      e.stopPropagation()
      copy()
    }
  }
  const onContextMenu = (e: MouseEvent<HTMLDivElement>): void => {
    e.preventDefault()
    const box = e.currentTarget.getBoundingClientRect()
    setMenu({ x: e.clientX - box.left, y: e.clientY - box.top })
  }
  const menuItems: PaneMenuItem[] = [
    { label: 'Copy', shortcut: 'Ctrl+Shift+C', disabled: !owner.current?.selection(), run: copy },
    { label: 'Select all', run: () => owner.current?.selectAll() },
    { label: 'Find…', shortcut: 'Ctrl+F', run: () => setSearching(true) }
  ]
  return (
    <section
      ref={(node) => {
        section.current = node
        drag?.setNodeRef(node)
      }}
      className={`pane pane-${variant}${nestedUnder ? ' pane-sub' : ''}${teammate ? ' pane-teammate' : ''}${needsAttention(agent?.state) ? ' attention' : ''}${maximised ? ' pane-maximised' : ''}${drag?.dragging ? ' pane-dragging' : ''}`}
      style={style}
      data-agent-id={agentId}
      data-parent-id={agent?.parentId}
      data-state={agent?.state}
      data-backend={agent?.backend}
      aria-label={`${name} pane`}
      data-keys={teammate ? 'message' : takesKeys ? 'terminal' : undefined}
      onKeyDownCapture={onKeyDown}
    >
      <PaneHeader agentId={agentId} drag={drag?.handle} />
      <div
        className="pane-body"
        onContextMenu={onContextMenu}
        onPaste={(e) => {
          const text = e.clipboardData.getData('text')
          if (!teammate || !text || !(e.target as HTMLElement).closest('.pane-term')) return
          e.preventDefault()
          line.current?.insert(text.replace(/\r?\n/g, ' '))
        }}
      >
        <div className="pane-term" ref={host} data-testid="pane-term" />
        {searching ? (
          <PaneSearch finder={owner.current} label={`${name} pane`} onClose={() => setSearching(false)} />
        ) : null}
        {menu ? <PaneContextMenu x={menu.x} y={menu.y} items={menuItems} onClose={closeMenu} /> : null}
        <PinnedPermissions agentId={agentId} />
        {agentId === LEADER_AGENT_ID ? <FirstScreen /> : null}
      </div>
      {teammate && agent ? <TeammateInput name={agent.agentName} line={line} /> : null}
    </section>
  )
}
