import { z } from 'zod'

/**
 * Size of a terminal in character cells, as a pane measures it and a PTY is told it: `cols`
 * columns by `rows` rows (docs/design.md#process-model, docs/ui.md#the-workspace-ui: a `process` teammate's pane IS its terminal).
 */
export interface TerminalSize {
  cols: number
  rows: number
}

/**
 * The largest terminal Swarmdesk accepts, in cells. The kernel's `struct winsize` holds 16-bit
 * fields (up to 65,535), so any bound below that reaches the program intact; ours is what a pane
 * could ever measure: an 8K screen (7680 × 4320 px) with 4 × 8 px cells — far smaller than the
 * pane's 13 px font — is 1920 × 540. Anything larger is a bug or a hostile page, not a window.
 */
export const MAX_TERMINAL_COLS = 2000
export const MAX_TERMINAL_ROWS = 1000

/** The size every terminal starts at when no pane has said otherwise (cells). */
export const DEFAULT_TERMINAL_SIZE: Readonly<TerminalSize> = { cols: 120, rows: 40 }

/**
 * Why `cols` × `rows` is not an acceptable terminal size, as a sentence naming what is allowed;
 * undefined when it is acceptable (whole numbers, 1–{@link MAX_TERMINAL_COLS} columns and
 * 1–{@link MAX_TERMINAL_ROWS} rows).
 */
export function terminalSizeProblem(cols: unknown, rows: unknown): string | undefined {
  const problems: string[] = []
  if (!isCount(cols, MAX_TERMINAL_COLS))
    problems.push(`cols must be a whole number from 1 to ${MAX_TERMINAL_COLS}, not ${describe(cols)}`)
  if (!isCount(rows, MAX_TERMINAL_ROWS))
    problems.push(`rows must be a whole number from 1 to ${MAX_TERMINAL_ROWS}, not ${describe(rows)}`)
  return problems.length ? `Bad terminal size: ${problems.join('; ')}.` : undefined
}

/** A terminal size as it crosses a process boundary (the `pane.resize` channel): the same bounds as {@link terminalSizeProblem}. */
export const TerminalSizeSchema = z.object({
  cols: z
    .number()
    .int('cols must be a whole number of columns')
    .min(1, 'cols must be at least 1')
    .max(MAX_TERMINAL_COLS, `cols must be at most ${MAX_TERMINAL_COLS}`),
  rows: z
    .number()
    .int('rows must be a whole number of rows')
    .min(1, 'rows must be at least 1')
    .max(MAX_TERMINAL_ROWS, `rows must be at most ${MAX_TERMINAL_ROWS}`)
})

function isCount(value: unknown, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max
}

function describe(value: unknown): string {
  return typeof value === 'number' ? String(value) : typeof value === 'string' ? JSON.stringify(value) : String(value)
}
