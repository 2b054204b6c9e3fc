/** Argument helpers shared by the read-only command analysers (no Node, no DOM). */

/** True for an option word (`-x`, `--long`); a lone `-` is an operand (stdin). */
export const isOption = (a: string): boolean => a.startsWith('-') && a !== '-'

/** The name part of an option like `--output=x` (`--output`); other words unchanged. */
export function optionName(a: string): string {
  const eq = a.indexOf('=')
  return a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a
}
