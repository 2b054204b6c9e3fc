/**
 * The pure parts of the peer benchmark: medians, the order of alternating pairs, a figure judged
 * against its goal, and the verdict over the figures in it. No I/O.
 */

/** How a figure is judged: the ratio Swarmdesk / Claude Code at most or at least `value`, or Swarmdesk's own value at most `value`. */
export type Goal =
  { kind: 'maxRatio'; value: number } | { kind: 'minRatio'; value: number } | { kind: 'maxValue'; value: number }

/** A figure's goals (issue 26 item 3): `goal` decides `pass`; `next` is the next goal, reported with its own pass. */
export interface FigureSpec {
  goal: Goal
  /** Whether `pass` counts towards the verdict. */
  inVerdict: boolean
  next?: Goal
  /** What the figure measures and in what unit, for the reader of the JSON. */
  what: string
}

/** One measured figure: each side the median of its samples; `ratio` Swarmdesk / Claude Code. */
export interface Figure {
  swarmdesk: number
  /** Null when the peer was not measured (its figure is then judged on Swarmdesk's value only, if the goal allows). */
  claudeCode: number | null
  ratio: number | null
  goal: string
  /** Null when the goal needs the peer and the peer was not measured. */
  pass: boolean | null
  inVerdict: boolean
  next?: { goal: string; pass: boolean | null }
  /** Samples per side (one per pair). */
  pairs: number
  what: string
}

/** A figure that could not be measured, and why. */
export interface Skipped {
  skipped: string
}

export type FigureOrSkipped = Figure | Skipped

/** The median of `xs` (the mean of the middle two for an even count). @throws for an empty list. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('median of no samples: a scenario produced no measurement')
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

/** The `p`-th percentile (0..100) of `xs`, nearest rank. @throws for an empty list or p outside 0..100. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) throw new Error('percentile of no samples')
  if (!(p >= 0 && p <= 100)) throw new Error(`percentile must be within 0..100, got ${p}`)
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!
}

export type Product = 'swarmdesk' | 'claudeCode'

/**
 * The order of the two runs of pair `i` (0-based): Swarmdesk first in even pairs, Claude Code
 * first in odd ones, so neither always runs on a machine the other just warmed (or loaded).
 */
export function pairOrder(i: number): [Product, Product] {
  return i % 2 === 0 ? ['swarmdesk', 'claudeCode'] : ['claudeCode', 'swarmdesk']
}

/** `goal` as text: `ratio <= 0.6`, `ratio >= 1`, `swarmdesk <= 25`. */
export function goalText(goal: Goal): string {
  if (goal.kind === 'maxRatio') return `ratio <= ${goal.value}`
  if (goal.kind === 'minRatio') return `ratio >= ${goal.value}`
  return `swarmdesk <= ${goal.value}`
}

/** Whether a figure meets `goal`; null when the goal is a ratio and there is none. */
export function meets(goal: Goal, swarmdesk: number, ratio: number | null): boolean | null {
  if (goal.kind === 'maxValue') return swarmdesk <= goal.value
  if (ratio === null) return null
  return goal.kind === 'maxRatio' ? ratio <= goal.value : ratio >= goal.value
}

/** Rounds to 2 decimals (3 below 1, so small shares and ratios keep their digits). */
export function round(n: number): number {
  const f = Math.abs(n) < 1 ? 1000 : 100
  return Math.round(n * f) / f
}

/**
 * A figure from the samples of each side (one per pair), judged by `spec`. `claudeCode` is
 * undefined when the peer was not run. The ratio of a Claude Code median at or below zero is null
 * (memory added can measure below zero when start-up's peak is above the team's).
 * @throws when Swarmdesk has no samples, or the two sides have different counts.
 */
export function figure(
  swarmdesk: readonly number[],
  claudeCode: readonly number[] | undefined,
  spec: FigureSpec
): Figure {
  if (claudeCode && claudeCode.length !== swarmdesk.length)
    throw new Error(`unpaired samples: ${swarmdesk.length} for swarmdesk, ${claudeCode.length} for claude code`)
  const sw = median(swarmdesk)
  const cc = claudeCode ? median(claudeCode) : null
  const ratio = cc === null || cc <= 0 ? null : sw / cc
  const out: Figure = {
    swarmdesk: round(sw),
    claudeCode: cc === null ? null : round(cc),
    ratio: ratio === null ? null : round(ratio),
    goal: goalText(spec.goal),
    pass: meets(spec.goal, sw, ratio),
    inVerdict: spec.inVerdict,
    pairs: swarmdesk.length,
    what: spec.what
  }
  if (spec.next) out.next = { goal: goalText(spec.next), pass: meets(spec.next, sw, ratio) }
  return out
}

/** The verdict and what decided it: the figures in the verdict that failed, and those that were not measured. */
export interface Verdict {
  verdict: 'pass' | 'fail'
  failed: string[]
  notMeasured: string[]
}

/**
 * `pass` only when every figure whose spec is in the verdict was measured and met its goal
 * (a skipped figure, or a ratio without the peer, has not met it).
 */
export function verdict(figures: Record<string, FigureOrSkipped>, specs: Record<string, FigureSpec>): Verdict {
  const failed: string[] = []
  const notMeasured: string[] = []
  for (const [name, spec] of Object.entries(specs)) {
    if (!spec.inVerdict) continue
    const f = figures[name]
    if (!f || 'skipped' in f || f.pass === null) notMeasured.push(name)
    else if (!f.pass) failed.push(name)
  }
  return { verdict: failed.length === 0 && notMeasured.length === 0 ? 'pass' : 'fail', failed, notMeasured }
}
