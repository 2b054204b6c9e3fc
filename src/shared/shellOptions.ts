import type { ArgValue, CommandEffects } from './readOnlyCommands'
import { isLongOption, isOption } from './shellArgs'

/** One option as a getopt-style parser reads it: its name as written (`-o`, `--outp`) and its value, if it takes one. */
export interface ParsedOption {
  name: string
  /** The value (glued, after `=`, or the next argument); `null` when it contains an expansion; absent for a flag. */
  value?: ArgValue
  /** The option takes a value and none followed it. */
  missing?: true
}

/** Options and operands of one command line. */
export interface ParsedArgs {
  options: ParsedOption[]
  operands: ArgValue[]
}

/** Which options of a command take a value: short option letters, and long names (matched by any prefix, as GNU getopt_long does). */
export interface OptionSpec {
  short: string
  long: readonly string[]
  /** Options end at the first operand (interpreters: the rest belongs to the script). Default: GNU permutation. */
  stopAtOperand?: boolean
}

/**
 * Splits `args` as GNU getopt does: `--` ends options; `--name=value`, `--name value` for the
 * long options of `spec`; short clusters `-abc`, where a letter that takes a value takes the rest
 * of the cluster or the next argument. An argument with an expansion is an operand `null` (it
 * could be anything). Which options take values is what the callers' man pages say; an option
 * that takes a value but is missing from `spec` makes its value an operand, which callers judge
 * as a path — only ever stricter.
 */
export function getopt(args: ArgValue[], spec: OptionSpec): ParsedArgs {
  const out: ParsedArgs = { options: [], operands: [] }
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === null || !isOption(a)) {
      out.operands.push(a)
      if (spec.stopAtOperand) {
        out.operands.push(...args.slice(i + 1))
        break
      }
      continue
    }
    if (a === '--') {
      out.operands.push(...args.slice(i + 1))
      break
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=')
      const name = eq < 0 ? a : a.slice(0, eq)
      if (eq >= 0) {
        out.options.push({ name, value: a.slice(eq + 1) })
        continue
      }
      if (spec.long.some((l) => isLongOption(name, l))) out.options.push(valued(name, args, ++i))
      else out.options.push({ name })
      continue
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]
      if (!spec.short.includes(c)) {
        out.options.push({ name: '-' + c })
        continue
      }
      if (j + 1 < a.length) out.options.push({ name: '-' + c, value: a.slice(j + 1) })
      else out.options.push(valued('-' + c, args, ++i))
      break
    }
  }
  return out
}

function valued(name: string, args: ArgValue[], i: number): ParsedOption {
  return i < args.length ? { name, value: args[i] } : { name, missing: true }
}

/** Whether `o` is the short option `short` or (by any prefix) the long option `long`. */
export function isOpt(o: ParsedOption, short: string | undefined, ...long: string[]): boolean {
  if (short !== undefined && o.name === short) return true
  return o.name.startsWith('--') && long.some((l) => isLongOption(o.name, l))
}

/** An option's value: `undefined` when missing, `null` when it holds an expansion. */
export const optionValue = (o: ParsedOption): string | null | undefined => (o.missing ? undefined : o.value)

/** The value of an option that names a file, or an `unknown` reason when it cannot be known. */
export function fileOf(o: ParsedOption, cmd: string, out: CommandEffects): string | undefined {
  const v = optionValue(o)
  if (typeof v === 'string') return v
  out.unknown.push(`${cmd} ${o.name}: its file cannot be read`)
  return undefined
}
