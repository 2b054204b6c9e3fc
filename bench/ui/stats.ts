/** The p-th percentile (0–100) of `values` by nearest rank; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

/** Rounds to `digits` decimals. */
export function round(value: number, digits = 1): number {
  const f = 10 ** digits
  return Math.round(value * f) / f
}

/** Bytes → MiB, one decimal. */
export function mib(bytes: number): number {
  return round(bytes / (1024 * 1024))
}
