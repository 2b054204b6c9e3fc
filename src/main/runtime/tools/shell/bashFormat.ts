import { cleanTerminalOutput, omittedNote } from '../../pty'

/** Most characters of command output the model sees in one tool result (docs/tools.md#tools, as Claude Code). */
export const MODEL_OUTPUT_CAP = 30_000

/** Characters kept from the start and from the end of output longer than the cap (the marker fits in the rest). */
const HEAD_CHARS = 15_000
const TAIL_CHARS = 14_800
/** A cut may move this far to land on a line boundary. */
const LINE_SNAP_CHARS = 2_000

/** The line that replaces the middle of long output: `[... 1234 characters truncated ...]`. */
export function truncationMarker(cutChars: number): string {
  return `[... ${cutChars} characters truncated ...]`
}

/**
 * Raw PTY output → what the model reads: ANSI-stripped, CRLF → LF, `\r` redraws collapsed
 * ({@link cleanTerminalOutput}), trailing whitespace trimmed, then capped by {@link capForModel}.
 * @param hostOmittedChars characters the PTY host already left out of `raw` (it keeps a bounded
 *   head and tail), counted into the marker.
 */
export function formatOutputForModel(raw: string, hostOmittedChars = 0): string {
  return capForModel(cleanTerminalOutput(raw).trimEnd(), hostOmittedChars)
}

/**
 * Caps `text` at {@link MODEL_OUTPUT_CAP} characters: the first ~15,000 and the last ~14,800
 * (cut on line boundaries when one is near), joined by a {@link truncationMarker} line that says
 * how many characters were cut — the start of a build log names the command, its end holds the
 * error. Text within the cap comes back unchanged (including a host note, if the host cut it).
 */
export function capForModel(text: string, hostOmittedChars = 0): string {
  if (text.length <= MODEL_OUTPUT_CAP) return text
  let headEnd = HEAD_CHARS
  const lastNewline = text.lastIndexOf('\n', headEnd)
  if (lastNewline > headEnd - LINE_SNAP_CHARS) headEnd = lastNewline
  let tailStart = text.length - TAIL_CHARS
  const nextNewline = text.indexOf('\n', tailStart)
  if (nextNewline >= 0 && nextNewline < tailStart + LINE_SNAP_CHARS) tailStart = nextNewline + 1
  const hostNote = hostOmittedChars > 0 ? omittedNote(hostOmittedChars) : ''
  const noteInCut = hostNote !== '' && text.slice(headEnd, tailStart).includes(hostNote)
  const cut = tailStart - headEnd + hostOmittedChars - (noteInCut ? hostNote.length + 2 : 0)
  return `${text.slice(0, headEnd)}\n\n${truncationMarker(cut)}\n\n${text.slice(tailStart)}`
}
