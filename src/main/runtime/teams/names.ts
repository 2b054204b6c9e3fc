import { sanitizeName } from '../../../shared/teams'
import { TeamNameError } from './errors'

/**
 * A usable team or agent name from what a person or model typed: sanitised to `[a-z0-9-]`
 * ("Code Review" → `code-review`). Names become folder names, so anything shaped like a path is
 * refused rather than rewritten.
 *
 * @throws TeamNameError naming the input and the rule.
 */
export function safeName(raw: string, what: 'team' | 'agent' = 'team'): string {
  if (/[/\\\0]/.test(raw) || raw.includes('..')) {
    throw new TeamNameError(
      `Invalid ${what} name '${raw}': it looks like a path ('/', '\\\\' and '..' are not allowed).`
    )
  }
  const name = sanitizeName(raw)
  if (!name)
    throw new TeamNameError(`Invalid ${what} name '${raw}': it needs at least one letter or digit ([a-z0-9-]).`)
  return name
}
