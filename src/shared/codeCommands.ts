import type { ArgValue, CommandEffects } from './readOnlyCommands'
import { isLongOption, isOption } from './shellArgs'

/**
 * Commands that run code given on the command line in a language the engine does not parse —
 * awk programs, `perl -e`, `python -c`, `node -e`, `ruby -e`, `php -r` — and in-place editors
 * (`perl -i`, `gawk -i inplace`). Code the engine cannot read may write anything, so it asks
 * (docs/permissions.md#permissions: when the engine cannot tell, it asks); files edited in place are judged as Edits. A
 * script file (`perl fix.pl`, `python3 build.py`) is the command the rule allows, as SECURITY.md
 * says: judged as the command, not by its contents.
 */

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/

/**
 * What an awk program text does beyond reading: `system()`, pipes (`print | "cmd"`, `"cmd" |
 * getline`), output redirection of `print`/`printf`, and gawk's `@load`/`@include`. Strings,
 * regex literals and comments are removed first, so `/a|b/` or `"x > y"` are not taken for them;
 * what remains is matched generously (`print (a > b)` asks too): only ever stricter.
 */
function awkProgram(program: string, out: CommandEffects): void {
  const code = program
    .replace(/"(?:\\.|[^"\\])*"/g, '""')
    .replace(/(^|[(,~!{};&|\n]\s*)\/(?:\\.|[^/\\\n])+\//g, '$1//')
    .replace(/#[^\n]*/g, '')
  if (/\bsystem\s*\(/.test(code)) out.unknown.push("awk's system() runs a command")
  if (/\|/.test(code.replace(/\|\|/g, ''))) out.unknown.push('awk pipes to or from a command')
  if (/\bprintf?\b[^;{}\n]*>/.test(code))
    out.unknown.push("awk's print > FILE writes a file the engine does not follow")
  if (/@(load|include)\b/.test(code)) out.unknown.push('gawk @load/@include loads code')
}

/** awk, gawk, mawk, nawk (POSIX awk; gawk(1) for its options): the program is checked, file operands read, `-i inplace` edits them. */
export function awkCommand(name: string, args: ArgValue[], out: CommandEffects): void {
  out.readOnly = false
  let program: string | undefined
  let inPlace = false
  let i = 0
  for (; i < args.length; i++) {
    const a = args[i]
    if (a === null) {
      out.unknown.push(`an argument of ${name} contains an expansion`)
      return
    }
    if (a === '--') {
      i++
      break
    }
    if (!isOption(a)) break
    const long = a.startsWith('--')
    const opt = long ? a.replace(/=.*/, '') : a.slice(0, 2)
    const glued = long
      ? a.includes('=')
        ? a.slice(a.indexOf('=') + 1)
        : undefined
      : a.length > 2
        ? a.slice(2)
        : undefined
    const next = (): ArgValue | undefined => glued ?? args[++i]
    if (opt === '-F' || opt === '-v' || isLongOption(opt, '--field-separator') || isLongOption(opt, '--assign')) {
      next()
      continue
    }
    if (opt === '-e' || isLongOption(opt, '--source')) {
      const v = next()
      if (typeof v !== 'string') {
        out.unknown.push(`${name} ${opt}: its program cannot be read`)
        return
      }
      awkProgram(v, out)
      program = (program ?? '') + v
      continue
    }
    if (opt === '-i' || isLongOption(opt, '--include')) {
      const v = next()
      if (v === 'inplace' || v === 'inplace.awk') inPlace = true
      else out.unknown.push(`${name} ${opt} ${v ?? ''} loads awk code the engine cannot see`)
      continue
    }
    if (opt === '-o' || isLongOption(opt, '--pretty-print') || opt === '-p' || isLongOption(opt, '--profile')) {
      out.writes.push(glued ?? 'awkprof.out')
      continue
    }
    if (
      opt === '-f' ||
      opt === '-E' ||
      opt === '-l' ||
      opt === '-W' ||
      opt === '-D' ||
      isLongOption(opt, '--file') ||
      isLongOption(opt, '--exec') ||
      isLongOption(opt, '--load') ||
      isLongOption(opt, '--debug')
    ) {
      out.unknown.push(`${name} ${opt} runs awk code the engine cannot see`)
      return
    }
  }
  if (program === undefined) {
    const p = args[i++]
    if (typeof p !== 'string') {
      out.unknown.push(`${name} has no program the engine can read`)
      return
    }
    awkProgram(p, out)
  }
  for (const a of args.slice(i)) {
    if (a === null) {
      out.unknown.push(`an argument of ${name} contains an expansion`)
      continue
    }
    if (a === '-' || ASSIGNMENT.test(a)) continue
    if (inPlace) out.writes.push(a)
    else out.reads.push(a)
  }
}

/**
 * perl (perlrun) and ruby: `-e`/`-E` code asks; `-i[ext]` edits every file operand in place
 * (`-pie` is `-p -i` with the backup suffix `e`, as perl reads it); without `-e` the first
 * operand is the script and the rest are files it reads; no script at all reads code from stdin.
 */
export function perlCommand(name: string, args: ArgValue[], out: CommandEffects): void {
  out.readOnly = false
  let inlineCode = false
  let inPlace = false
  let i = 0
  // perl takes the rest of the cluster as the value of these; ruby's -r/-C/-E/-I also take the next argument.
  const rest = name === 'perl' ? 'iMmIxlFCdDV0' : 'iIxlFC0KTWU'
  const separate = name === 'perl' ? 'eE' : 'erCEIF'
  for (; i < args.length; i++) {
    const a = args[i]
    if (a === null) {
      out.unknown.push(`an argument of ${name} contains an expansion`)
      return
    }
    if (a === '--') {
      i++
      break
    }
    if (a === '-' || !a.startsWith('-')) break
    if (a === '--version' || a === '--help' || a === '-v' || a === '-h') return
    if (a.startsWith('--')) continue
    for (let j = 1; j < a.length; j++) {
      const c = a[j]
      if (c === 'i') {
        inPlace = true
        break
      }
      if (separate.includes(c)) {
        if (j + 1 === a.length) i++
        if (c === 'e' || (c === 'E' && name === 'perl')) inlineCode = true
        break
      }
      if (rest.includes(c)) break
    }
  }
  if (inlineCode) out.unknown.push(`${name} -e runs ${name} code the engine cannot read`)
  else if (i >= args.length || args[i] === '-') {
    out.unknown.push(`${name} reads its program from standard input`)
    return
  } else i++
  for (const a of args.slice(i)) {
    if (a === null) {
      out.unknown.push(`an argument of ${name} contains an expansion`)
      continue
    }
    if (a === '-') continue
    if (inPlace) out.writes.push(a)
    else out.reads.push(a)
  }
}

/** Interpreters whose code option and value-taking options are listed (python(1), node(1), php(1)). */
const INTERPRETERS: Record<string, { code: string[]; valued: string[] }> = {
  python: { code: ['-c'], valued: ['-W', '-X', '-Q'] },
  node: {
    code: ['-e', '--eval', '-p', '--print'],
    valued: [
      '-r',
      '--require',
      '--import',
      '--loader',
      '--experimental-loader',
      '-C',
      '--conditions',
      '--input-type',
      '--title',
      '--env-file'
    ]
  },
  php: { code: ['-r', '-B', '-R', '-F', '-E', '-a'], valued: ['-c', '-d', '-z'] }
}

/** The interpreter family of a command name: `python3.12` is python, `nodejs` is node. */
export function interpreterFamily(name: string): string | undefined {
  if (/^python[0-9.]*$/.test(name)) return 'python'
  if (name === 'node' || name === 'nodejs') return 'node'
  if (name === 'php') return 'php'
  return undefined
}

/** python/node/php: inline code asks; so does a program read from stdin; a script file (or `-m module`) is the command itself. */
export function interpreterCommand(family: string, name: string, args: ArgValue[], out: CommandEffects): void {
  out.readOnly = false
  const spec = INTERPRETERS[family]
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === null) {
      out.unknown.push(`an argument of ${name} contains an expansion`)
      return
    }
    if (a === '-') break
    if (!isOption(a)) return
    if (['--version', '-V', '--help', '-h', '-v'].includes(a)) return
    // python clusters short flags (`-Bc CODE`); node takes `-pe CODE`.
    const flags = a.startsWith('--') ? [a.replace(/=.*/, '')] : [...a.slice(1)].map((c) => '-' + c)
    if (flags.some((f) => spec.code.includes(f))) {
      out.unknown.push(`${name} ${a} runs ${family} code the engine cannot read`)
      return
    }
    if (family === 'python' && flags.includes('-m')) return
    if (!a.includes('=') && spec.valued.includes(a)) i++
  }
  out.unknown.push(`${name} reads its program from standard input`)
}
