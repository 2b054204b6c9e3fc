import { contextWindowTokens } from '../../../shared/contextWindows'
import type { Usage } from '../../../shared/events'

/**
 * Prices in USD per million tokens (MTok). Source: Anthropic's published price list. Cache
 * writes use the 5-minute TTL multiplier (1.25 × input); cache reads are 0.1 × input.
 */
export interface ModelPrice {
  inputPerMTok: number
  outputPerMTok: number
  cacheWritePerMTok: number
  cacheReadPerMTok: number
}

function price(input: number, output: number): ModelPrice {
  return { inputPerMTok: input, outputPerMTok: output, cacheWritePerMTok: input * 1.25, cacheReadPerMTok: input * 0.1 }
}

/**
 * Price table, matched by model-id prefix (longest prefix first), so dated ids
 * (`claude-sonnet-5-5-20250929`) price like their family. Families newer than the last price list
 * this table was checked against (the 5.x ids the SDK names) are priced like their family's
 * latest listed model — Sonnet $3/$15, Opus $5/$25, Haiku $1/$5 — until a list says otherwise.
 * Models of other families have no price: their cost counts as 0 and the session says so.
 */
const PRICE_TABLE: ReadonlyArray<[prefix: string, price: ModelPrice]> = (
  [
    ['claude-opus-5', price(5, 25)],
    ['claude-opus-4-8', price(5, 25)],
    ['claude-opus-4-7', price(5, 25)],
    ['claude-opus-4-6', price(5, 25)],
    ['claude-opus-4-5', price(5, 25)],
    ['claude-opus-4-1', price(15, 75)],
    ['claude-opus-4', price(15, 75)],
    ['claude-sonnet-', price(3, 15)],
    ['claude-3-7-sonnet', price(3, 15)],
    ['claude-3-5-sonnet', price(3, 15)],
    ['claude-haiku-5', price(1, 5)],
    ['claude-haiku-4', price(1, 5)],
    ['claude-3-5-haiku', price(0.8, 4)],
    ['claude-3-haiku', price(0.25, 1.25)]
  ] as Array<[string, ModelPrice]>
).sort((a, b) => b[0].length - a[0].length)

/** The price of `model`, or undefined when the table does not know it (cost then counts as 0 and a warning is due). */
export function priceOf(model: string): ModelPrice | undefined {
  return PRICE_TABLE.find(([prefix]) => model.startsWith(prefix))?.[1]
}

/** Cost in USD of `usage` on `model`; 0 for a model missing from the table. */
export function costOf(model: string, usage: Usage): number {
  const p = priceOf(model)
  if (!p) return 0
  return (
    (usage.inputTokens * p.inputPerMTok +
      usage.outputTokens * p.outputPerMTok +
      usage.cacheCreationInputTokens * p.cacheWritePerMTok +
      usage.cacheReadInputTokens * p.cacheReadPerMTok) /
    1_000_000
  )
}

/** Model aliases accepted wherever a model is named (agent definitions, `--model`). */
export const MODEL_ALIASES: Readonly<Record<string, string>> = {
  opus: 'claude-opus-5-5',
  sonnet: 'claude-sonnet-5-5',
  haiku: 'claude-haiku-5-5'
}

/** The main agent's model when nothing names one. */
export const DEFAULT_MODEL = 'claude-sonnet-5-5'

/** The fast model (Explore agents, summaries). */
export const FAST_MODEL = 'claude-haiku-5-5'

/** Resolves an alias to a model id; ids pass through unchanged. */
export function resolveModel(nameOrAlias: string): string {
  return MODEL_ALIASES[nameOrAlias] ?? nameOrAlias
}

/** Context window of `model` in tokens: the table of ../../../shared/contextWindows, one source for the loop and the dashboard. */
export function contextWindowOf(model: string): number {
  return contextWindowTokens(model)
}
