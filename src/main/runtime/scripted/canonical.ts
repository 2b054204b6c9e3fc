/**
 * Canonical JSON for prompt-cache keys (docs/model.md#model-access): object keys sorted, every `cache_control`
 * field removed, no whitespace. Removing `cache_control` is what makes a prefix's key the same
 * whether or not (and wherever) a breakpoint was set on it, as with the real API, where moving a
 * breakpoint does not invalidate earlier entries.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(normalise(value))
}

function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) {
    if (key === 'cache_control') continue
    const child = (value as Record<string, unknown>)[key]
    if (child !== undefined) out[key] = normalise(child)
  }
  return out
}
