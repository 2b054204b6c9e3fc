import type { ArgValue, CommandEffects } from './readOnlyCommands'
import { attachedPath, isLongOption, isOption, optionName } from './shellArgs'

/** Read-only git subcommands (docs/permissions.md#permissions) and the options that make any git command run code or write. */
const GIT_READ_ONLY = [
  'status',
  'log',
  'diff',
  'show',
  'rev-parse',
  'ls-files',
  'blame',
  'branch',
  'remote',
  'ls-tree',
  'describe',
  'shortlog'
]
const GIT_BRANCH_SHORT_WRITES = /^-[dDmMcCfut]$/
/** `git branch` options that change branches or open an editor (git-branch(1)); matched as git's parse-options does, prefixes included. */
const GIT_BRANCH_WRITES = [
  '--delete',
  '--move',
  '--copy',
  '--force',
  '--track',
  '--no-track',
  '--set-upstream-to',
  '--unset-upstream',
  '--edit-description'
]
/** Options of any subcommand that write a file, run a program or read a file elsewhere (and `-o` of `archive` and `format-patch`, their output file and directory). */
const GIT_OUTPUT = ['--output']
const GIT_RUNS = ['--upload-pack', '--receive-pack', '--exec']
const GIT_CONFIGURED_PROGRAMS = ['--ext-diff', '--open-files-in-pager']
const GIT_READS = ['--contents', '--ignore-revs-file']
const named = (a: string, list: string[]): string | undefined => list.find((full) => isLongOption(a, full))

/**
 * The effects of `git …` (`args` after the command word): read-only for the subcommands of
 * {@link GIT_READ_ONLY} without options that write, run programs or read files elsewhere.
 */
export function gitCommand(args: ArgValue[], out: CommandEffects): void {
  let i = 0
  let base = ''
  for (; i < args.length; i++) {
    const a = args[i]
    if (a === null) {
      out.unknown.push('an argument of git contains an expansion')
      return
    }
    if (!a.startsWith('-')) break
    if (a === '-C') {
      const d = args[++i]
      if (typeof d !== 'string') {
        out.unknown.push('git -C directory cannot be read')
        return
      }
      out.reads.push(d)
      base = d.endsWith('/') ? d : d + '/'
      continue
    }
    if (a === '-c' || a.startsWith('--config-env') || a.startsWith('--exec-path')) {
      out.readOnly = false
      out.unknown.push(`git ${a} sets configuration, which can run programs`)
      return
    }
    if (a === '--git-dir' || a === '--work-tree' || a === '--namespace') {
      const d = args[++i]
      if (typeof d === 'string') out.reads.push(d)
      continue
    }
    if (a.startsWith('--git-dir=') || a.startsWith('--work-tree=')) {
      out.reads.push(a.slice(a.indexOf('=') + 1))
      continue
    }
    if (a === '--version' || a === '--help') return
    if (
      ![
        '--no-pager',
        '-P',
        '--paginate',
        '-p',
        '--bare',
        '--no-replace-objects',
        '--literal-pathspecs',
        '--no-optional-locks'
      ].includes(a)
    ) {
      out.readOnly = false
      out.unknown.push(`git option ${a} is not known to the permission engine`)
      return
    }
  }
  const sub = args[i]
  const rest = args.slice(i + 1)
  if (sub === undefined) return
  if (sub === null) {
    out.unknown.push('the git subcommand contains an expansion')
    return
  }
  out.readOnly = GIT_READ_ONLY.includes(sub)
  const positional: string[] = []
  for (let k = 0; k < rest.length; k++) {
    const a = rest[k]
    if (a === null) {
      out.unknown.push('an argument of git contains an expansion')
      continue
    }
    // git's parse-options takes a unique prefix of a long option (`git blame --conten=F`), so
    // each dangerous option is matched by prefix too.
    const opt =
      named(a, GIT_OUTPUT) ??
      named(a, GIT_RUNS) ??
      named(a, GIT_CONFIGURED_PROGRAMS) ??
      named(a, GIT_READS) ??
      optionName(a)
    const shortOutput = a.startsWith('-o') && (sub === 'archive' || sub === 'format-patch')
    if (opt === '--output' || shortOutput || (sub === 'format-patch' && named(a, ['--output-directory']))) {
      out.readOnly = false
      const v = shortOutput && a.length > 2 ? a.slice(2) : a.includes('=') ? a.slice(a.indexOf('=') + 1) : rest[++k]
      if (typeof v === 'string') out.writes.push(v.startsWith('/') || v.startsWith('~') ? v : base + v)
      else out.unknown.push(`git ${a} has no file`)
    } else if (GIT_RUNS.includes(opt) || (a === '-u' && ['clone', 'fetch', 'pull', 'ls-remote'].includes(sub))) {
      out.readOnly = false
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : rest[++k]
      if (typeof v === 'string') out.runs.push({ kind: 'script', code: v })
      else out.unknown.push(`git ${opt} has no program`)
    } else if (GIT_CONFIGURED_PROGRAMS.includes(opt) || (sub === 'grep' && a.startsWith('-O'))) {
      out.readOnly = false
      out.unknown.push(`git ${a} runs configured programs`)
    } else if (GIT_READS.includes(opt) || opt === '-S') {
      // `git blame --contents=FILE` (and its revs/-S files) reads FILE: judged like any read.
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : rest[++k]
      if (typeof v === 'string') out.reads.push(base + v)
      else out.unknown.push(`git ${opt} has no file`)
    } else if (sub === 'branch' && (GIT_BRANCH_SHORT_WRITES.test(a) || named(a, GIT_BRANCH_WRITES)))
      out.readOnly = false
    else if (!isOption(a)) positional.push(a)
    else {
      const p = attachedPath(a)
      if (p !== undefined) out.reads.push(p.startsWith('/') || p.startsWith('~') ? p : base + p)
    }
  }
  if (sub === 'branch' && positional.length > 0 && !rest.some((a) => a === '--list' || a === '-l')) out.readOnly = false
  if (sub === 'remote' && !rest.every((a) => a === '-v' || a === '--verbose')) out.readOnly = false
  if (out.readOnly)
    out.reads.push(
      ...positional.filter((p) => p !== '--').map((p) => (p.startsWith('/') || p.startsWith('~') ? p : base + p))
    )
}
