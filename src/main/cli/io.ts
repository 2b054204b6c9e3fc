import { resolve } from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'

/** Bad command-line usage: exit code 2, with a message naming what was wrong (docs/events.md#event-stream-and-command-line). */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/**
 * `util.parseArgs` in strict mode, with its errors turned into {@link UsageError}s that name the
 * command, so every command reports bad flags the same way; a single-valued option given twice is
 * one of them ({@link refuseRepeatedOptions}).
 */
export function parseCommandArgs<T extends ParseArgsConfig['options']>(
  command: string,
  argv: string[],
  options: T,
  allowPositionals = false
) {
  try {
    const parsed = parseArgs({ args: argv, options, allowPositionals, strict: true })
    refuseRepeatedOptions(argv, options)
    return parsed
  } catch (error) {
    throw new UsageError(`swarmdesk ${command}: ${(error as Error).message}. See: swarmdesk ${command} --help`)
  }
}

/**
 * Throws when `argv` gives an option that takes one value (a string option without `multiple`)
 * more than once: `util.parseArgs` keeps the last, which silently drops the others
 * (docs/events.md#event-stream-and-command-line: bad usage, exit 2). Call it after a strict parse
 * of the same `argv` and `options` succeeded; booleans may repeat.
 * @throws Error naming the option, as `util.parseArgs` words its own (the caller adds the command).
 */
export function refuseRepeatedOptions(argv: string[], options: ParseArgsConfig['options']): void {
  const { tokens } = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true })
  const seen = new Set<string>()
  for (const token of tokens) {
    if (token.kind !== 'option') continue
    const option = options?.[token.name]
    if (option?.type !== 'string' || option.multiple) continue
    if (seen.has(token.name))
      throw new Error(`Option '--${token.name}' was given more than once; it takes one value, give it once`)
    seen.add(token.name)
  }
}

/**
 * A path flag's value made absolute against the directory the command was run from (the shell's
 * working directory), as every command-line tool reads a relative path — never against `--cwd`.
 * `undefined` passes through.
 */
export function flagPath(value: string): string
export function flagPath(value: string | undefined): string | undefined
export function flagPath(value: string | undefined): string | undefined {
  return value === undefined ? undefined : resolve(process.cwd(), value)
}

/** Parses a positive integer flag; `undefined` passes through. */
export function positiveInt(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive integer, got '${value}'.`)
  return n
}

/** Parses a positive number flag; `undefined` passes through. */
export function positiveNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number, got '${value}'.`)
  return n
}

/** Whether to colour human output: a TTY, unless NO_COLOR is set; FORCE_COLOR forces it. */
export function useColor(stream: NodeJS.WriteStream): boolean {
  if (process.env.NO_COLOR) return false
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') return true
  return stream.isTTY === true
}
