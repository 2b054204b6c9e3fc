/**
 * Context windows of the models Swarmdesk names, in tokens, for the dashboard's "context used"
 * (docs/ui.md#the-workspace-ui team dashboard: context use). Source: Anthropic's models overview
 * (https://docs.anthropic.com/en/docs/about-claude/models/overview, "Context window" row) — every
 * Claude model takes 200,000 tokens. A 1,000,000-token window exists only as a documented beta
 * (header `context-1m-2025-08-07`, Sonnet 4 and 4.5) that Swarmdesk never requests, so it is not
 * listed here: listing it would make a full context look a fifth used.
 *
 * Matched by model-id prefix, longest first, so dated ids (`claude-sonnet-4-5-20250929`) take
 * their family's window. A model the table does not know gets {@link DEFAULT_CONTEXT_WINDOW}.
 */
const CONTEXT_WINDOWS: ReadonlyArray<readonly [prefix: string, tokens: number]> = (
  [
    ['claude-opus-', 200_000],
    ['claude-sonnet-', 200_000],
    ['claude-haiku-', 200_000],
    ['claude-3-7-sonnet', 200_000],
    ['claude-3-5-sonnet', 200_000],
    ['claude-3-5-haiku', 200_000],
    ['claude-3-haiku', 200_000],
    ['claude-3-opus', 200_000]
  ] as Array<[string, number]>
).sort((a, b) => b[0].length - a[0].length)

/** Window assumed for a model the table does not know (tokens): the Claude default. */
export const DEFAULT_CONTEXT_WINDOW = 200_000

/** The context window of `model` in tokens; {@link DEFAULT_CONTEXT_WINDOW} when unknown or absent. */
export function contextWindowTokens(model: string | undefined): number {
  if (!model) return DEFAULT_CONTEXT_WINDOW
  return CONTEXT_WINDOWS.find(([prefix]) => model.startsWith(prefix))?.[1] ?? DEFAULT_CONTEXT_WINDOW
}

/**
 * How full an agent's context is, 0..1 (may exceed 1 only if a model's window is larger than the
 * table says): the tokens its last request sent — input plus cache reads and writes, which together
 * are the whole prompt — over its model's window.
 * @param promptTokens tokens of the last request's prompt
 */
export function contextFraction(promptTokens: number, model: string | undefined): number {
  return promptTokens / contextWindowTokens(model)
}
