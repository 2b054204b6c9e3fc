/** A compiled `matcher`: true when the hook entry applies to `value` (an agent type). */
export type HookMatcher = (value: string) => boolean

const LITERAL = /^[A-Za-z0-9_|]+$/

/**
 * Compile a hook entry's `matcher` with Claude Code's rules:
 * - omitted, `""` or `"*"`: matches everything;
 * - only letters, digits, `_` and `|`: an exact name or `|`-separated exact names
 *   (`"Explore|Plan"` matches `Explore` and `Plan`, never `Explorer`);
 * - anything else: a JavaScript regular expression tested unanchored (`"code-.*"` also matches
 *   `my-code-reviewer`; anchor with `^…$` for an exact match of a name with `-` or `:`).
 * Case-sensitive in every form.
 * @throws SyntaxError when the text is neither a literal list nor a valid regular expression.
 */
export function compileMatcher(text: string | undefined): HookMatcher {
  if (text === undefined || text === '' || text === '*') return () => true
  if (LITERAL.test(text)) {
    const names = new Set(text.split('|').filter((n) => n !== ''))
    return (value) => names.has(value)
  }
  const re = new RegExp(text)
  return (value) => re.test(value)
}
