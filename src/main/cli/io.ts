import { resolve } from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'

/** Bad command-line usage: exit code 2, with a message naming what was wrong (docs/events.md#event-stream-and-command-line). */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/**
 * `util.parseArgs` in strict mode, with its errors turned into {@link UsageError}s that name the
 * command, so every command reports bad flags the same way.
 */
export function parseCommandArgs<T extends ParseArgsConfig['options']>(
  command: string,
  argv: string[],
  options: T,
  allowPositionals = false
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true })
  } catch (error) {
    throw new UsageError(`swarmdesk ${command}: ${(error as Error).message}. See: swarmdesk ${command} --help`)
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
