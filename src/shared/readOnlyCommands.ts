import { gitCommand } from './readOnlyGit'
import { findCommand } from './readOnlyFind'
import { sedCommand } from './readOnlySed'
import { awkCommand, interpreterCommand, interpreterFamily, perlCommand } from './codeCommands'
import { curlCommand, patchCommand, rsyncCommand, tarCommand, unzipCommand, wgetCommand } from './writingCommands'
import { attachedPath, isLongOption, isOption } from './shellArgs'

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

/** An argument as the shell will pass it; `null` when it contains an expansion we cannot know. */
export type ArgValue = string | null

/** Code a command runs: an argv to judge as a command, or a script string to parse as Bash. */
export type CommandRun =
  | {
      kind: 'argv'
      argv: ArgValue[]
      extraArgsUnknown: boolean
      /**
       * The command runs on what `find` finds below these roots (its `{}` already stand for
       * them): its paths are judged as whole trees. `inFoundDirs` (`-execdir`): it also runs in
       * the directories below them, so its relative paths may be anywhere below the roots.
       */
      below?: { roots: string[]; inFoundDirs: boolean }
    }
  | { kind: 'script'; code: string }

/** The effects of one simple command; the engine decides each effect on its own. */
export interface CommandEffects {
  /** The command itself only reads (it is on the list and used with safe flags). */
  readOnly: boolean
  /** Path arguments it reads (as written: relative to the command's directory). */
  reads: string[]
  /** Path arguments it writes. */
  writes: string[]
  /**
   * Directories it writes recursively: anything below may be written or removed (`rm -r`,
   * `find -delete`, `chmod -R`, an rsync destination, where tar or unzip extract).
   */
  writesBelow: string[]
  /** Code it runs; judged as Bash in its own right (an allow rule of this command never covers it). */
  runs: CommandRun[]
  /** Why the engine cannot tell what it does (each one makes the engine ask). */
  unknown: string[]
  /**
   * The directories in `reads` are read recursively, contents included (`grep -r`, `rg`): the
   * engine then also asks when a deny rule covers files below them.
   */
  recursive?: true
}

/** Commands that read nothing from the file system through their arguments. */
export const READ_ONLY_NO_FILE_COMMANDS: readonly string[] = [
  'pwd',
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'whoami',
  'id',
  'uname',
  'which',
  'type',
  'basename',
  'dirname',
  'tr',
  'test',
  '[',
  'printenv',
  'date',
  'seq',
  'nproc'
]

/** Commands whose non-option arguments are files they read. */
export const READ_ONLY_FILE_COMMANDS: readonly string[] = [
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'file',
  'stat',
  'du',
  'df',
  'tree',
  'realpath',
  'readlink',
  'sort',
  'uniq',
  'cut',
  'diff',
  'cmp',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'find',
  'nl',
  'md5sum',
  'sha256sum',
  'sha1sum'
]

type UnsafeKind = 'write' | 'run' | 'unknown' | 'follows'

/**
 * Options that make an otherwise read-only command do more. `write` = the option's value is a
 * file written; `run` = its value is a program run; `unknown` = the engine cannot follow it;
 * `follows` = a flag (no value) that follows symlinks while walking directories, so it can read
 * outside the workspace through a link inside it.
 * Sources: each tool's man page (coreutils, GNU grep/findutils, ripgrep, tree, file, date).
 */
const UNSAFE_OPTIONS: Record<string, Record<string, UnsafeKind>> = {
  sort: {
    '-o': 'write',
    '--output': 'write',
    '--compress-program': 'run',
    '-T': 'unknown',
    '--temporary-directory': 'unknown'
  },
  tree: { '-o': 'write', '-R': 'unknown', '-l': 'follows' },
  file: { '-C': 'unknown', '--compile': 'unknown' },
  date: { '-s': 'unknown', '--set': 'unknown', '-f': 'unknown', '--file': 'unknown' },
  printf: { '-v': 'unknown' },
  rg: { '--pre': 'run', '-L': 'follows', '--follow': 'follows' },
  grep: { '-R': 'follows', '--dereference-recursive': 'follows' },
  egrep: { '-R': 'follows', '--dereference-recursive': 'follows' },
  fgrep: { '-R': 'follows', '--dereference-recursive': 'follows' },
  du: { '-L': 'follows', '--dereference': 'follows' },
  ls: { '-L': 'follows', '--dereference': 'follows' },
  diff: { '-r': 'follows', '--recursive': 'follows' }
}

/** Commands whose non-option arguments are files they write (mkdir, touch, mv, cp are acceptEdits' "common file commands"). */
export const FILE_WRITING_COMMANDS: readonly string[] = [
  'mkdir',
  'touch',
  'mv',
  'cp',
  'rm',
  'rmdir',
  'unlink',
  'shred',
  'ln',
  'chmod',
  'chown',
  'chgrp',
  'truncate',
  'tee',
  'install',
  'mkfifo'
]

/**
 * The option that makes a file command act on whole trees (coreutils: `rm -r`/`-R`, `chmod`/
 * `chown`/`chgrp -R`): its operands are then written recursively. cp and mv keep acceptEdits'
 * allowance for their operands (docs/permissions.md#permissions) and are not listed.
 */
const RECURSIVE_OPTION: Record<string, RegExp> = {
  rm: /^(-[^-]*[rR]|--recursive$)/,
  chmod: /^(-[^-]*R|--recursive$)/,
  chown: /^(-[^-]*R|--recursive$)/,
  chgrp: /^(-[^-]*R|--recursive$)/
}

/** File commands acceptEdits allows inside the workspace (docs/permissions.md#permissions). */
export const ACCEPT_EDITS_COMMANDS: readonly string[] = ['mkdir', 'touch', 'mv', 'cp']

function effects(): CommandEffects {
  return { readOnly: true, reads: [], writes: [], writesBelow: [], runs: [], unknown: [] }
}

/** Find an unsafe option in `a` (long `--x[=v]`, short `-x`, glued `-xVALUE`, or in a cluster `-rxVALUE`). */
function unsafeOption(name: string, a: string): { kind: UnsafeKind; glued?: string } | undefined {
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
function readsAll(name: string, args: ArgValue[], out: CommandEffects): void {
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
function writesAll(name: string, args: ArgValue[], out: CommandEffects): void {
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

/** Commands whose written files come from options, archives or servers (writingCommands.ts). */
const WRITERS: Record<string, (args: ArgValue[], out: CommandEffects) => void> = {
  curl: curlCommand,
  wget: wgetCommand,
  tar: tarCommand,
  unzip: unzipCommand,
  rsync: rsyncCommand,
  patch: patchCommand
}

/** Commands whose `-t DIR` names the directory they write into (coreutils). */
const TARGET_DIRECTORY_COMMANDS = ['cp', 'mv', 'ln', 'install']

/** Variables that change which program runs or what it loads (`PATH=/tmp ls`, `LD_PRELOAD=x.so ls`): setting one makes the engine ask. */
export const DANGEROUS_ENV_NAMES =
  /^(PATH|LD_\w*|DYLD_\w*|BASH_ENV|ENV|IFS|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|NODE_OPTIONS|PYTHON\w*|PERL\w*|RUBY\w*|GIT_\w*|PAGER|EDITOR|VISUAL|LESS\w*|BROWSER|HOME|XDG_\w*|ZDOTDIR|INPUTRC|NPM_CONFIG_\w*|npm_config_\w*|CARGO_HOME|RUSTUP_HOME|GNUPGHOME|SSH_\w*|CURL_HOME|WGETRC|MANPAGER|SYSTEMD_PAGER|GIT|SUDO_ASKPASS|TMPDIR)$/

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

/**
 * `rg` always, and `grep -r`/`--recursive`/`--directories=recurse`, read whole trees. Their first
 * operand is usually the pattern, so with at most one operand the current directory is searched
 * too (as both do). Short clusters containing `r` are taken as recursive (stricter).
 */
function recursiveReads(name: string, args: ArgValue[], out: CommandEffects): void {
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
function readsAllOptionsOnly(name: string, args: ArgValue[], out: CommandEffects): void {
  for (const a of args) {
    if (a !== null && isOption(a) && unsafeOption(name, a)) {
      out.readOnly = false
      out.unknown.push(`${name} ${a} is not followed by the permission engine`)
    }
  }
}
