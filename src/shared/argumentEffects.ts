import { attachedPath, isLongOption, isOption } from './shellArgs'
import {
  TARGET_DIRECTORY_COMMANDS,
  UNSAFE_OPTIONS,
  type ArgValue,
  type CommandEffects,
  type UnsafeKind
} from './commandTables'

/**
 * How a command's arguments turn into effects (docs/permissions.md#permissions): every operand read,
 * every operand written, options checked against {@link UNSAFE_OPTIONS}. Used by commandEffects.
 */

/** A command's effects before its arguments are read: read-only, touching nothing. */
export function effects(): CommandEffects {
  return { readOnly: true, reads: [], writes: [], writesBelow: [], runs: [], unknown: [] }
}

/** Find an unsafe option in `a` (long `--x[=v]`, short `-x`, glued `-xVALUE`, or in a cluster `-rxVALUE`). */
export function unsafeOption(name: string, a: string): { kind: UnsafeKind; glued?: string } | undefined {
  const table = UNSAFE_OPTIONS[name] ?? {}
  if (a.startsWith('--')) {
    // GNU tools take any unambiguous prefix of a long option (`sort --outp=FILE`).
    const key = Object.keys(table).find((k) => k.startsWith('--') && isLongOption(a, k))
    const kind = key === undefined ? undefined : table[key]
    if (!kind) return undefined
    return a.includes('=') ? { kind, glued: a.slice(a.indexOf('=') + 1) } : { kind }
  }
  for (let i = 1; i < a.length; i++) {
    const kind = table['-' + a[i]]
    if (kind) return i + 1 < a.length ? { kind, glued: a.slice(i + 1) } : { kind }
  }
  return undefined
}

/** Treat every non-option argument as a path the command reads (unknown when dynamic). */
export function readsAll(name: string, args: ArgValue[], out: CommandEffects): void {
  let afterDashDash = false
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === null) {
      out.unknown.push(`an argument of ${name} contains an expansion`)
      continue
    }
    if (!afterDashDash && a === '--') {
      afterDashDash = true
      continue
    }
    if (afterDashDash || !isOption(a)) {
      out.reads.push(a)
      continue
    }
    const unsafe = unsafeOption(name, a)
    if (unsafe?.kind === 'follows') {
      out.readOnly = false
      out.unknown.push(`${name} ${a} follows symbolic links, which may lead outside the workspace`)
      continue
    }
    if (unsafe) {
      out.readOnly = false
      const value = unsafe.glued ?? args[++i]
      if (value === undefined || value === null) out.unknown.push(`${name} ${a}: its value cannot be read`)
      else if (unsafe.kind === 'write') out.writes.push(value)
      else if (unsafe.kind === 'run') out.runs.push({ kind: 'argv', argv: [value], extraArgsUnknown: true })
      else out.unknown.push(`${name} ${a} is not followed by the permission engine`)
      continue
    }
    const p = attachedPath(a)
    if (p !== undefined) out.reads.push(p)
  }
}

/** Writes every non-option argument (rm, mv, cp, tee…); sources of mv/cp are checked as writes too (stricter). */
export function writesAll(name: string, args: ArgValue[], out: CommandEffects): void {
  let afterDashDash = false
  for (const a of args) {
    if (a === null) {
      out.unknown.push(`an argument of ${name} contains an expansion`)
      continue
    }
    if (!afterDashDash && a === '--') {
      afterDashDash = true
      continue
    }
    if (!afterDashDash && isOption(a)) {
      // A value glued to an option may be where the command writes: `--target-directory=/x`
      // (or any unambiguous prefix GNU getopt accepts, `--target=/x`), `-t/x`. Judged as written paths.
      if (a.startsWith('--') && a.includes('=')) out.writes.push(a.slice(a.indexOf('=') + 1))
      else if (/^-[^-]*t./.test(a) && TARGET_DIRECTORY_COMMANDS.includes(name))
        out.writes.push(a.slice(a.indexOf('t') + 1))
      continue
    }
    out.writes.push(a)
  }
}

/**
 * `rg` always, and `grep -r`/`--recursive`/`--directories=recurse`, read whole trees. Their first
 * operand is usually the pattern, so with at most one operand the current directory is searched
 * too (as both do). Short clusters containing `r` are taken as recursive (stricter).
 */
export function recursiveReads(name: string, args: ArgValue[], out: CommandEffects): void {
  const grep = name === 'grep' || name === 'egrep' || name === 'fgrep'
  if (name !== 'rg' && !grep) return
  if (
    grep &&
    !args.some(
      (a) =>
        a !== null &&
        (/^-[^-]*r/.test(a) || isLongOption(a, '--recursive') || isLongOption(a, '--directories') || a === 'recurse')
    )
  )
    return
  out.recursive = true
  if (args.filter((a) => a === null || !isOption(a)).length <= 1) out.reads.push('.')
}

/** For commands with no file arguments whose options may still be unsafe (`date -s`). */
export function readsAllOptionsOnly(name: string, args: ArgValue[], out: CommandEffects): void {
  for (const a of args) {
    if (a !== null && isOption(a) && unsafeOption(name, a)) {
      out.readOnly = false
      out.unknown.push(`${name} ${a} is not followed by the permission engine`)
    }
  }
}
