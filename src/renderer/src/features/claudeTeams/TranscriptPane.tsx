import { useEffect, useState } from 'react'
import type { ClaudeTeamView } from '../../../../shared/ipc'
import { connectedApi } from '../../store/commands'

/** Whose transcript a pane shows: a member by name, or a subagent by its agent id. */
export type TranscriptOf = { name: string } | { subagent: string }

/**
 * A Claude Code teammate's (or subagent's) pane: its transcript rendered as text by main
 * (`claudeTeams.transcript`), read again whenever its team changes. Not a live terminal: Claude
 * Code's in-process teammates have none.
 */
export function TranscriptPane({ team, of, title }: { team: ClaudeTeamView; of: TranscriptOf; title: string }) {
  const [text, setText] = useState<string | undefined>()
  const [error, setError] = useState<string | undefined>()
  const key = 'name' in of ? `m:${of.name}` : `s:${of.subagent}`
  useEffect(() => {
    let current = true
    connectedApi()
      .request('claudeTeams.transcript', { team: team.name, ...of })
      .then(
        (read) => {
          if (!current) return
          setText(read.text)
          setError(undefined)
        },
        (e: unknown) => current && setError(e instanceof Error ? e.message : String(e))
      )
    return () => {
      current = false
    }
    // `of` is identified by `key`; the team object changes with every push
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [team, key])
  return (
    <figure className="cc-pane" aria-label={`${title}'s transcript`}>
      {error ? <p className="cc-error">{error}</p> : <pre>{text ?? 'Reading…'}</pre>}
    </figure>
  )
}
