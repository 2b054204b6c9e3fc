// The one line format of the UI benchmark's agent output, shared by the producer (run by each
// agent's Bash command in its PTY), the baseline page's generator and the in-page receiver that
// checks every line arrived whole and in order. Plain JavaScript so the producer runs with bare
// `node` and the page gets the same function as source text.

/** Bytes of every line as the producer writes it, the final "\n" included (ASCII only: bytes = chars). */
export const LINE_BYTES = 120

/**
 * Line `seq` (0-based) of producer `agent`: coloured like agent output (a 256-colour tag, a bold
 * coloured word, a dim tail), exactly {@link LINE_BYTES} bytes with its "\n". Deterministic, so a
 * receiver can rebuild it and compare.
 * @param {number} agent producer index, 0–99
 * @param {number} seq line number, 0–9,999,999
 * @returns {string}
 */
export function benchLine(agent, seq) {
  const words = ['reading', 'editing', 'testing', 'linting', 'building', 'fetching', 'parsing', 'writing']
  const tag = String(16 + ((agent * 37 + seq) % 216)).padStart(3, '0')
  const word = words[(agent + seq) % words.length]
  const head =
    '\x1b[38;5;' +
    tag +
    'm[bench a=' +
    String(agent).padStart(2, '0') +
    ' s=' +
    String(seq).padStart(7, '0') +
    ']\x1b[0m '
  const middle = '\x1b[1;3' + (1 + ((agent + seq) % 6)) + 'm' + word + '\x1b[22;39m src/module' + (seq % 97) + '.ts '
  const tailLength = LINE_BYTES - 1 - head.length - middle.length - 8
  const tail = '\x1b[2m' + 'ok '.repeat(Math.ceil(tailLength / 3)).slice(0, tailLength) + '\x1b[0m'
  return head + middle + tail + '\n'
}
