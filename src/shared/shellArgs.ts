/** Argument helpers shared by the read-only command analysers (no Node, no DOM). */

/** True for an option word (`-x`, `--long`); a lone `-` is an operand (stdin). */
export const isOption = (a: string): boolean => a.startsWith('-') && a !== '-'

/** The name part of an option like `--output=x` (`--output`); other words unchanged. */
export function optionName(a: string): string {
  const eq = a.indexOf('=')
  return a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a
}

/**
 * Whether the option word `a` names the long option `full` (`--output`), as GNU getopt_long and
 * git's parse-options read it: the whole name, or any prefix of it (`--outp=x`, `--o x`), since
 * both accept an unambiguous prefix. A prefix that is ambiguous makes the program exit with an
 * error, so treating every prefix as `full` only ever judges a command more strictly.
 */
export function isLongOption(a: string, full: string): boolean {
  const name = optionName(a)
  return name.startsWith('--') && name.length > 2 && full.startsWith(name)
}

/**
 * An option value attached to its option that looks like a path: `--file=./x`, `--from-file=/etc/x`,
 * or glued to a short option, `-f/etc/x` (`grep -f/etc/shadow` reads it as patterns). In a short
 * cluster the value starts at its first `/`, `./`, `../` or `~/`; a lone `/` (`cut -d/`) is a
 * delimiter, not a path.
 */
export function attachedPath(a: string): string | undefined {
  const eq = a.indexOf('=')
  if (a.startsWith('--')) {
    if (eq < 0) return undefined
    const v = a.slice(eq + 1)
    return /^[~./]/.test(v) || v.includes('/') ? v : undefined
  }
  const glued = /(\/|\.\.?\/|~\/).*$/.exec(a.slice(2))
  return glued && glued[0].length > 1 ? glued[0] : undefined
}
