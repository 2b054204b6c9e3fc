import { gitCommand } from './readOnlyGit'
import { findCommand } from './readOnlyFind'
import { sedCommand } from './readOnlySed'
import { awkCommand, interpreterCommand, interpreterFamily, perlCommand } from './codeCommands'
import { patchCommand, rsyncCommand, tarCommand, unzipCommand } from './writingCommands'
import { curlCommand, wgetCommand } from './downloadCommands'
import { isLongOption, isOption } from './shellArgs'
import {
  DANGEROUS_ENV_NAMES,
  FILE_WRITING_COMMANDS,
  READ_ONLY_FILE_COMMANDS,
  READ_ONLY_NO_FILE_COMMANDS,
  RECURSIVE_OPTION,
  type ArgValue,
  type CommandEffects
} from './commandTables'
import { effects, readsAll, readsAllOptionsOnly, recursiveReads, writesAll } from './argumentEffects'

/**
 * What one simple shell command does, as far as permissions care (docs/permissions.md#permissions): which of its
 * arguments are files it reads or writes, which code it runs, and whether the command itself is
 * on the read-only list that default mode allows without asking.
 *
 * Pure data + a pure checker (no Node imports: src/shared is compiled without Node types) so the
 * UI can explain a decision with the same list the runtime uses.
 *
 * Conservative by construction: every non-option argument of a file-reading command is treated
 * as a path (a grep pattern such as `foo` is then a harmless path inside the workspace; a pattern
 * such as `/etc/x` makes the engine ask, never allow more). Option values attached with `=` that
 * look like paths are checked too.
 *
 * Choices on the list: pagers (`less`, `more`) are excluded (they run commands via `!`); `awk`
 * is excluded (`system()`); `git -C DIR` is allowed with DIR checked as a read (other paths are
 * then relative to it); `git -c`, `--exec-path`, `--config-env` are never read-only (config can
 * name programs); `npm ls` is read-only, `npm view` is not (it goes to the network); a command
 * given by path (`/bin/ls`) is never on the list.
 */
export type { ArgValue, CommandEffects, CommandRun } from './commandTables'
export {
  ACCEPT_EDITS_COMMANDS,
  DANGEROUS_ENV_NAMES,
  FILE_WRITING_COMMANDS,
  READ_ONLY_FILE_COMMANDS,
  READ_ONLY_NO_FILE_COMMANDS
} from './commandTables'

/** Commands whose written files come from options, archives or servers (writingCommands.ts). */
const WRITERS: Record<string, (args: ArgValue[], out: CommandEffects) => void> = {
  curl: curlCommand,
  wget: wgetCommand,
  tar: tarCommand,
  unzip: unzipCommand,
  rsync: rsyncCommand,
  patch: patchCommand
}

/** Options that take a value, per wrapper, so the wrapped command is found (coreutils man pages). */
const WRAPPERS: Record<string, { valued: string[]; positionalsBefore: number; readOnly: boolean }> = {
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], positionalsBefore: 1, readOnly: true },
  nice: { valued: ['-n', '--adjustment'], positionalsBefore: 0, readOnly: true },
  nohup: { valued: [], positionalsBefore: 0, readOnly: true },
  time: { valued: ['-o', '--output', '-f', '--format'], positionalsBefore: 0, readOnly: true },
  stdbuf: { valued: ['-i', '-o', '-e'], positionalsBefore: 0, readOnly: true },
  command: { valued: [], positionalsBefore: 0, readOnly: true },
  builtin: { valued: [], positionalsBefore: 0, readOnly: true },
  exec: { valued: ['-a'], positionalsBefore: 0, readOnly: true },
  setsid: { valued: [], positionalsBefore: 0, readOnly: true },
  sudo: { valued: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '-T'], positionalsBefore: 0, readOnly: false },
  xargs: {
    valued: [
      '-a',
      '-d',
      '-E',
      '-e',
      '-I',
      '-i',
      '-L',
      '-l',
      '-n',
      '-P',
      '-s',
      '--arg-file',
      '--delimiter',
      '--max-args',
      '--max-procs',
      '--max-chars',
      '--replace',
      '--max-lines',
      '--process-slot-var'
    ],
    positionalsBefore: 0,
    readOnly: true
  }
}

function wrapper(name: string, args: ArgValue[], out: CommandEffects): void {
  const spec = WRAPPERS[name]
  let i = 0
  let positionals = 0
  for (; i < args.length; i++) {
    const a = args[i]
    if (a === null) {
      out.unknown.push(`an option of ${name} contains an expansion`)
      return
    }
    if (a === '--') {
      i++
      break
    }
    if (isOption(a)) {
      if (name === 'command' && (a === '-v' || a === '-V')) return
      const valued = spec.valued.some((v) => v === a || (v.startsWith('--') && isLongOption(a, v)))
      if (valued && !a.includes('=')) {
        const value = args[++i]
        if (name === 'time' && (a === '-o' || isLongOption(a, '--output')) && typeof value === 'string')
          out.writes.push(value)
        if (name === 'xargs' && (a === '-a' || isLongOption(a, '--arg-file')) && typeof value === 'string')
          out.reads.push(value)
      } else if (name === 'time' && isLongOption(a, '--output') && a.includes('='))
        out.writes.push(a.slice(a.indexOf('=') + 1))
      continue
    }
    if (positionals < spec.positionalsBefore) {
      positionals++
      continue
    }
    break
  }
  const inner = args.slice(i)
  out.readOnly = spec.readOnly
  if (name === 'nohup') out.writes.push('nohup.out')
  if (inner.length === 0) {
    if (name === 'xargs') out.runs.push({ kind: 'argv', argv: ['echo'], extraArgsUnknown: true })
    return
  }
  out.runs.push({ kind: 'argv', argv: inner, extraArgsUnknown: name === 'xargs' })
}

function envCommand(args: ArgValue[], out: CommandEffects): void {
  let i = 0
  for (; i < args.length; i++) {
    const a = args[i]
    if (a === null) {
      out.unknown.push('an argument of env contains an expansion')
      return
    }
    if (a === '-u' || (isLongOption(a, '--unset') && !a.includes('='))) {
      i++
      continue
    }
    if (isLongOption(a, '--chdir') || isLongOption(a, '--split-string') || /^-[^-]*[SC]/.test(a)) {
      out.unknown.push(`env ${a} is not followed by the permission engine`)
      return
    }
    if (isOption(a)) continue
    const eq = a.indexOf('=')
    if (eq > 0) {
      if (DANGEROUS_ENV_NAMES.test(a.slice(0, eq)))
        out.unknown.push(`env sets ${a.slice(0, eq)}, which changes what runs`)
      continue
    }
    break
  }
  if (i < args.length) out.runs.push({ kind: 'argv', argv: args.slice(i), extraArgsUnknown: false })
}

/** `bash -c CODE`, `sh -lc CODE`…: the code is judged as Bash; running a script file is not read-only. */
function shellCommand(name: string, args: ArgValue[], out: CommandEffects): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === null) {
      out.unknown.push(`an argument of ${name} contains an expansion`)
      return
    }
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(a)) {
      const code = args.slice(i + 1).find((x) => x === null || !isOption(x))
      if (code === undefined || code === null) out.unknown.push(`the code given to ${name} -c cannot be read`)
      else out.runs.push({ kind: 'script', code })
      return
    }
    if (a === '-o' || a === '+o' || a === '-O' || a === '+O') {
      i++
      continue
    }
    if (!isOption(a) && !a.startsWith('+')) break
  }
  out.readOnly = false
}

function evalCommand(args: ArgValue[], out: CommandEffects): void {
  if (args.some((a) => a === null)) out.unknown.push('eval of an expansion cannot be classified')
  else if (args.length > 0) out.runs.push({ kind: 'script', code: args.join(' ') })
}

/** `dd if=… of=…`. */
function ddCommand(args: ArgValue[], out: CommandEffects): void {
  out.readOnly = false
  for (const a of args) {
    if (a === null) {
      out.unknown.push('an argument of dd contains an expansion')
      continue
    }
    if (a.startsWith('of=')) out.writes.push(a.slice(3))
    if (a.startsWith('if=')) out.reads.push(a.slice(3))
  }
}

/** Interpreters are read-only only when asked for their version (`node --version`); npm also for `npm ls`. */
function versionOnly(name: string, args: ArgValue[], out: CommandEffects): void {
  const [first, ...rest] = args
  const isVersion = args.length === 1 && (first === '--version' || first === '-v' || first === '-V')
  const isNpmList =
    name === 'npm' && (first === 'ls' || first === 'list') && rest.every((a) => a !== null && isOption(a))
  out.readOnly = isVersion || isNpmList
}

/**
 * The effects of one simple command `argv` (command word first, prefix assignments removed).
 * A command given by path (`/bin/ls`, `./ls`) is never on the read-only list: a workspace file
 * could be named `ls`.
 */
export function commandEffects(argv: ArgValue[]): CommandEffects {
  const out = effects()
  const [name, ...args] = argv
  if (name === null || name === undefined) {
    out.readOnly = false
    out.unknown.push('the command name contains an expansion')
    return out
  }
  if (READ_ONLY_NO_FILE_COMMANDS.includes(name)) {
    if (name === 'date' || name === 'printf') readsAllOptionsOnly(name, args, out)
    // `test -v 'a[$(cmd)]'` evaluates the array subscript, which runs cmd.
    if ((name === 'test' || name === '[') && args.includes('-v')) {
      out.readOnly = false
      out.unknown.push(`${name} -v evaluates array subscripts, which can run commands`)
    }
    return out
  }
  if (name === 'uniq') {
    readsAll(name, args, out)
    const positional = args.filter((a) => a !== null && !isOption(a))
    if (positional.length >= 2) {
      out.readOnly = false
      out.reads.splice(out.reads.indexOf(positional[1] as string), 1)
      out.writes.push(positional[1] as string)
    }
    return out
  }
  if (name === 'sed') {
    sedCommand(args, out)
    return out
  }
  if (name === 'find') {
    findCommand(args, out)
    return out
  }
  if (name === 'git') {
    gitCommand(args, out)
    return out
  }
  if (READ_ONLY_FILE_COMMANDS.includes(name)) {
    readsAll(name, args, out)
    recursiveReads(name, args, out)
    return out
  }
  if (name === 'tee') {
    writesAll(name, args, out)
    return out
  }
  if (FILE_WRITING_COMMANDS.includes(name)) {
    out.readOnly = false
    writesAll(name, args, out)
    const recursive = RECURSIVE_OPTION[name]
    if (recursive && args.some((a) => a !== null && recursive.test(a))) out.writesBelow.push(...out.writes.splice(0))
    return out
  }
  if (name in WRAPPERS) {
    wrapper(name, args, out)
    return out
  }
  if (name === 'env') {
    envCommand(args, out)
    return out
  }
  if (name === 'eval') {
    evalCommand(args, out)
    return out
  }
  if (name === 'watch') {
    out.readOnly = false
    evalCommand(
      args.filter((a) => a === null || !isOption(a)),
      out
    )
    return out
  }
  if (['bash', 'sh', 'zsh', 'dash', 'ksh'].includes(name)) {
    shellCommand(name, args, out)
    return out
  }
  if (name === 'dd') {
    ddCommand(args, out)
    return out
  }
  if (name === 'node' || name === 'npm') {
    versionOnly(name, args, out)
    if (name === 'node' && !out.readOnly) interpreterCommand('node', name, args, out)
    return out
  }
  const family = interpreterFamily(name)
  if (family) {
    interpreterCommand(family, name, args, out)
    return out
  }
  if (['awk', 'gawk', 'mawk', 'nawk'].includes(name)) {
    awkCommand(name, args, out)
    return out
  }
  if (name === 'perl' || name === 'ruby') {
    perlCommand(name, args, out)
    return out
  }
  const writer = WRITERS[name]
  if (writer) {
    writer(args, out)
    return out
  }
  out.readOnly = false
  return out
}
