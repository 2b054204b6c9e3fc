/**
 * End-of-command handshake. On Linux, node-pty can drop the last few KB a command prints: the
 * PTY master reads EOF once the last writer closes the slave, even with bytes still unread
 * (microsoft/node-pty#85, #726; here `seq 1 2000000` lost up to 9 KB in 4 runs of 6). The end
 * of the output is what matters most (the error, the test summary), so the command runs inside
 * a wrapper that keeps the slave open after it: the wrapper prints a private OSC sequence with a
 * per-run token and the exit status, then waits. Bytes on a tty arrive in order, so once the
 * host sees the marker it has everything before it; then it kills the group.
 */

/** OSC number of the marker; any number xterm ignores would do. */
const OSC = '6973'

/** The status a spare shell's ready marker carries in place of an exit status. */
const READY = 'ready'

/** The marker a spare shell prints once it waits for its command (see {@link spareBashArgs}). */
export function readyMarker(token: string): string {
  return `\x1b]${OSC};${token};${READY}\x07`
}

/**
 * The shell variable holding the command while it runs (not exported: only the command's own
 * shell sees it, as `set` would list it).
 */
export const COMMAND_VARIABLE = 'SWARMDESK_COMMAND'

/**
 * The outer shell's part, `$1` the token and `$3` the inner shell's script: it runs the command's
 * shell (an inner, rc-less bash: `exit` in the command ends only that shell, and `$$` is that
 * shell's pid, as under `bash -c`), then prints the marker with its status. `$?` of a command
 * killed by a signal is 128+n, as in any shell. The trailing `read` (a builtin: no process to start
 * or kill) is a fallback for a host that never sees the marker; the host kills the shell when it
 * does. `$2` is what the inner shell gets as its `$1`.
 */
const OUTER = (stdin: string) =>
  `bash --noprofile --norc -c "$3" bash "$2"${stdin}; s=$?; printf '\\033]${OSC};%s;%d\\007' "$1" "$s"; read -r -t 60 _; exit "$s"`

/**
 * How the inner shell runs the command held in {@link COMMAND_VARIABLE}: with no positional
 * parameters and `$0` `bash` (as `bash -c` would have it), stdin /dev/null (nobody types into these
 * terminals, so a prompt — `rm -i`, `read`, a REPL — gets EOF at once instead of waiting for the
 * timeout; stdout and stderr stay on the terminal, so programs still colour and format for it),
 * by `eval`, as Claude Code runs its commands. A syntax error reads `bash: syntax error near…`
 * instead of `bash: -c: line 1: syntax error near…`.
 */
const RUN = `set --; exec </dev/null; eval "$${COMMAND_VARIABLE}"`

/** `bash` arguments that run `command` in a new terminal, the command passed as an argument. */
export function wrappedBashArgs(command: string, token: string): string[] {
  const inner = `${COMMAND_VARIABLE}=$1; ${RUN}`
  return ['--noprofile', '--norc', '-c', OUTER(' </dev/null'), 'bash', token, command, inner]
}

/**
 * Ends a command typed into a spare shell ({@link spareBashArgs}); never part of an encoded command.
 */
export const SPARE_DELIMITER = '~'

/**
 * `bash` arguments of a spare shell: a new terminal whose inner shell is already started and waits
 * for its one command. Its `read` switches the terminal to no-echo, unbuffered input and then
 * prints `ready` (so the host may type from then on: nothing it types is echoed), reads the command
 * as {@link encodeForSpare} wrote it up to {@link SPARE_DELIMITER}, decodes it with the `printf %b`
 * builtin and runs it as {@link wrappedBashArgs} would. Typing the command starts no process. A
 * read that fails (the terminal hung up) ends the shell without running anything.
 */
export function spareBashArgs(token: string, ready: string): string[] {
  const read = `IFS= read -r -s -d '${SPARE_DELIMITER}' -p "$1" ${COMMAND_VARIABLE} || exit 1; printf -v ${COMMAND_VARIABLE} %b "$${COMMAND_VARIABLE}"`
  return ['--noprofile', '--norc', '-c', OUTER(''), 'bash', token, ready, `${read}; ${RUN}`]
}

/**
 * `command` as typed into a spare shell: printable ASCII as is, every other byte of its UTF-8 (and
 * `\`, and the delimiter) as a `\xHH` escape, so no byte the terminal would act on (an interrupt,
 * flow control, a carriage return) is ever typed; `printf %b` turns it back into the command.
 */
export function encodeForSpare(command: string): string {
  let out = ''
  for (const byte of Buffer.from(command, 'utf8')) {
    const plain = byte >= 0x20 && byte < 0x7f && byte !== 0x5c && byte !== 0x7e
    out += plain ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`
  }
  return out
}

/**
 * Scans a PTY stream for the marker of one run. `push` returns the text to pass on (the marker
 * removed, a possible partial marker at the end of a chunk held back) and, once the marker has
 * arrived, the command's exit status; everything after the marker is dropped.
 */
export class CompletionMarker {
  private readonly prefix: string
  private held = ''
  private exitCode: number | undefined

  /** @param token Unique per run (a command cannot forge the marker of a run it cannot see). */
  constructor(readonly token: string) {
    this.prefix = `\x1b]${OSC};${token};`
  }

  /** The exit status from the marker, once seen. */
  get status(): number | undefined {
    return this.exitCode
  }

  /**
   * `ready` is set when the chunk held a spare shell's ready marker (the same sequence with `ready`
   * for a status, {@link spareBashArgs}); it is removed from the text like the end marker.
   */
  push(chunk: string): { text: string; exitCode?: number; ready?: true } {
    if (this.exitCode !== undefined) return { text: '' }
    let data = this.held + chunk
    this.held = ''
    let text = ''
    let ready: true | undefined
    for (;;) {
      const start = data.indexOf(this.prefix)
      if (start < 0) break
      const end = data.indexOf('\x07', start)
      if (end < 0) {
        this.held = data.slice(start)
        return { text: text + data.slice(0, start), ...(ready ? { ready } : {}) }
      }
      const status = data.slice(start + this.prefix.length, end)
      text += data.slice(0, start)
      if (status !== READY) {
        this.exitCode = Number(status)
        return { text, exitCode: this.exitCode, ...(ready ? { ready } : {}) }
      }
      ready = true
      data = data.slice(end + 1)
    }
    const lastEsc = data.lastIndexOf('\x1b')
    if (lastEsc >= 0 && this.prefix.startsWith(data.slice(lastEsc))) {
      this.held = data.slice(lastEsc)
      data = data.slice(0, lastEsc)
    }
    return { text: text + data, ...(ready ? { ready } : {}) }
  }

  /** Text held back as a possible marker start, when the stream ended without the marker. */
  flush(): string {
    const text = this.held
    this.held = ''
    return text
  }
}
