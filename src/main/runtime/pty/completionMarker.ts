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

/**
 * `bash` arguments that run `command` in an inner non-login, rc-less bash (so `exit` in it ends
 * only the inner shell), then print the marker with its status. `$?` of a command killed by a
 * signal is 128+n, as in any shell. Stdin is /dev/null: nobody types into these terminals, so a
 * prompt (`rm -i`, `read`, a REPL) gets EOF at once instead of waiting for the timeout; stdout
 * and stderr stay on the terminal, so programs still colour and format for it. The trailing
 * sleep is a fallback for a host that never sees the marker; the host kills it when it does.
 */
export function wrappedBashArgs(command: string, token: string): string[] {
  const script = `bash --noprofile --norc -c "$1" </dev/null; s=$?; printf '\\033]${OSC};%s;%d\\007' "$2" "$s"; sleep 60; exit "$s"`
  return ['--noprofile', '--norc', '-c', script, 'bash', command, token]
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

  push(chunk: string): { text: string; exitCode?: number } {
    if (this.exitCode !== undefined) return { text: '' }
    const data = this.held + chunk
    this.held = ''
    const start = data.indexOf(this.prefix)
    if (start >= 0) {
      const end = data.indexOf('\x07', start)
      if (end >= 0) {
        this.exitCode = Number(data.slice(start + this.prefix.length, end))
        return { text: data.slice(0, start), exitCode: this.exitCode }
      }
      this.held = data.slice(start)
      return { text: data.slice(0, start) }
    }
    const lastEsc = data.lastIndexOf('\x1b')
    if (lastEsc >= 0 && this.prefix.startsWith(data.slice(lastEsc))) {
      this.held = data.slice(lastEsc)
      return { text: data.slice(0, lastEsc) }
    }
    return { text: data }
  }

  /** Text held back as a possible marker start, when the stream ended without the marker. */
  flush(): string {
    const text = this.held
    this.held = ''
    return text
  }
}
