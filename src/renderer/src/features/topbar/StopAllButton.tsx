import { useEffect, useRef, useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { useAppStore } from '../../store/store'
import { dashboardCommands } from '../dashboard/commands'
import { stopAllLines, stopAllTargets } from './stopAll'

/**
 * The top bar's Stop all (docs/ui.md#the-workspace-ui): asks first, as a teammate's Kill does, in a small dialog under
 * the button that says what it will stop (the leader's turn, which subagents, which teammates it
 * kills); "Stop all" there confirms, Cancel or Esc keeps everything running.
 */
export function StopAllButton() {
  const stopping = useAppStore((s) => s.dashboard.stopAllPending)
  const open = useAppStore((s) => s.connection.status === 'open')
  const [confirming, setConfirming] = useState(false)
  const lines = useAppStore(useShallow((s) => stopAllLines(stopAllTargets(s.workspace.agents, s.workspace.agentOrder))))
  const confirm = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (confirming) confirm.current?.focus()
  }, [confirming])
  return (
    <span className="stop-all">
      <button
        type="button"
        className="btn btn-small btn-stop topbar-stop"
        disabled={!open || stopping}
        aria-expanded={confirming}
        title="Stop the leader's turn and every subagent; kill every teammate (asks first)"
        onClick={() => setConfirming((v) => !v)}
      >
        {stopping ? 'Stopping…' : 'Stop all'}
      </button>
      {confirming ? (
        <div
          className="stop-all-confirm"
          role="alertdialog"
          aria-label="Stop all?"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation()
              setConfirming(false)
            }
          }}
        >
          <p className="stop-all-title">Stop all?</p>
          {lines.length > 0 ? (
            <ul className="stop-all-list" data-testid="stop-all-list">
              {lines.map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          ) : (
            <p className="stop-all-none">
              Nothing is running now; Stop all would stop whatever starts before it reaches the agents.
            </p>
          )}
          <div className="stop-all-actions">
            <button
              ref={confirm}
              type="button"
              className="btn btn-small btn-stop"
              disabled={stopping}
              onClick={() => {
                setConfirming(false)
                void dashboardCommands.stopAll()
              }}
            >
              Stop all
            </button>
            <button type="button" className="btn btn-small" onClick={() => setConfirming(false)}>
              Cancel <kbd>Esc</kbd>
            </button>
          </div>
        </div>
      ) : null}
    </span>
  )
}
