import type { ArgValue, CommandEffects } from './readOnlyCommands'
import { fileOf, getopt, isOpt } from './shellOptions'

/**
 * Commands that write files named by their options or operands, or files whose names come from
 * elsewhere (an archive, a server): tar, unzip, rsync, patch (curl and wget are in downloadCommands.ts). What each writes is
 * judged as an Edit (docs/permissions.md#permissions); a directory that receives files whose names the engine cannot
 * know is a recursive write of that directory (`writesBelow`) and the command asks (`unknown`).
 * Sources: each tool's man page (GNU tar 1.34, Info-ZIP UnZip 6, rsync
 * 3.2, GNU patch 2.7).
 */

const TAR_VALUED_SHORT = 'fCTXbKNLVgHIF'
const TAR_VALUED_LONG = [
  '--file',
  '--directory',
  '--files-from',
  '--exclude-from',
  '--exclude',
  '--blocking-factor',
  '--starting-file',
  '--newer',
  '--after-date',
  '--tape-length',
  '--label',
  '--listed-incremental',
  '--format',
  '--use-compress-program',
  '--info-script',
  '--new-volume-script',
  '--to-command',
  '--rsh-command',
  '--checkpoint-action',
  '--owner',
  '--group',
  '--mode',
  '--mtime',
  '--transform',
  '--xform',
  '--index-file',
  '--volno-file',
  '--suffix'
]

/** `tar xzf a.tgz` (old style: the first argument is letters, and each letter that takes a value takes the next argument). */
function tarArgs(args: ArgValue[]): ArgValue[] {
  const [first, ...rest] = args
  if (typeof first !== 'string' || !/^[A-Za-z]+$/.test(first)) return args
  const out: ArgValue[] = []
  for (const c of first) {
    out.push('-' + c)
    if (TAR_VALUED_SHORT.includes(c) && rest.length > 0) out.push(rest.shift() as ArgValue)
  }
  return [...out, ...rest]
}

/** GNU tar: `-c`/`-r`/`-u`/`-A`/`--delete` write the archive; `-x` writes what the archive holds below `-C DIR` (asks). */
export function tarCommand(args: ArgValue[], out: CommandEffects): void {
  out.readOnly = false
  const { options, operands } = getopt(tarArgs(args), { short: TAR_VALUED_SHORT, long: TAR_VALUED_LONG })
  let mode: 'write' | 'extract' | 'read' | undefined
  let archive: string | undefined
  let toStdout = false
  let removeFiles = false
  const dirs: string[] = []
  for (const o of options) {
    if (
      isOpt(o, '-c', '--create') ||
      isOpt(o, '-r', '--append') ||
      isOpt(o, '-u', '--update') ||
      isOpt(o, '-A', '--catenate', '--concatenate') ||
      isOpt(o, undefined, '--delete')
    )
      mode = 'write'
    else if (isOpt(o, '-x', '--extract', '--get')) mode = 'extract'
    else if (isOpt(o, '-t', '--list') || isOpt(o, '-d', '--diff', '--compare')) mode = 'read'
    else if (isOpt(o, '-f', '--file')) archive = fileOf(o, 'tar', out)
    else if (isOpt(o, '-C', '--directory')) {
      const d = fileOf(o, 'tar', out)
      if (d !== undefined) dirs.push(d)
    } else if (isOpt(o, '-O', '--to-stdout')) toStdout = true
    else if (isOpt(o, undefined, '--remove-files')) removeFiles = true
    else if (
      isOpt(o, '-I', '--use-compress-program') ||
      isOpt(o, '-F', '--info-script', '--new-volume-script') ||
      isOpt(o, undefined, '--to-command', '--rsh-command', '--checkpoint-action')
    ) {
      out.unknown.push(`tar ${o.name} runs a program`)
    } else if (isOpt(o, '-T', '--files-from') || isOpt(o, '-X', '--exclude-from')) {
      const f = fileOf(o, 'tar', out)
      if (f !== undefined && f !== '-') out.reads.push(f)
    }
  }
  const files = operands.filter((f): f is string => typeof f === 'string')
  if (operands.some((f) => f === null)) out.unknown.push('an argument of tar contains an expansion')
  if (mode === 'write') {
    if (archive === undefined) out.unknown.push('tar without -f writes to $TAPE or its default device')
    else if (archive !== '-') out.writes.push(archive)
    if (removeFiles) out.writes.push(...files)
    else out.reads.push(...files)
  } else if (mode === 'extract') {
    if (archive !== undefined && archive !== '-') out.reads.push(archive)
    if (toStdout) return
    out.writesBelow.push(...(dirs.length > 0 ? dirs : ['.']))
    out.unknown.push('tar -x writes the names its archive holds, which the engine cannot see')
  } else if (archive !== undefined && archive !== '-') out.reads.push(archive)
  else if (mode === undefined) out.unknown.push('tar without -c, -x or -t is not followed by the permission engine')
}

/** UnZip: extracts what the archive holds below `-d DIR` (asks); `-l`/`-t`/`-v`/`-z`/`-Z`/`-p`/`-c` only read. */
export function unzipCommand(args: ArgValue[], out: CommandEffects): void {
  out.readOnly = false
  const { options, operands } = getopt(args, { short: 'dP', long: [] })
  if (options.some((o) => ['-l', '-t', '-v', '-z', '-Z', '-p', '-c'].includes(o.name))) {
    if (typeof operands[0] === 'string') out.reads.push(operands[0])
    return
  }
  const d = options.find((o) => o.name === '-d')
  const dir = d ? fileOf(d, 'unzip', out) : '.'
  if (typeof operands[0] === 'string') out.reads.push(operands[0])
  if (dir !== undefined) out.writesBelow.push(dir)
  out.unknown.push('unzip writes the names its archive holds, which the engine cannot see')
}

const RSYNC_VALUED_LONG = [
  '--rsh',
  '--rsync-path',
  '--log-file',
  '--log-file-format',
  '--write-batch',
  '--only-write-batch',
  '--read-batch',
  '--files-from',
  '--exclude-from',
  '--include-from',
  '--exclude',
  '--include',
  '--filter',
  '--backup-dir',
  '--suffix',
  '--temp-dir',
  '--partial-dir',
  '--compare-dest',
  '--copy-dest',
  '--link-dest',
  '--chmod',
  '--chown',
  '--usermap',
  '--groupmap',
  '--password-file',
  '--block-size',
  '--max-size',
  '--min-size',
  '--timeout',
  '--contimeout',
  '--port',
  '--sockopts',
  '--out-format',
  '--bwlimit',
  '--remote-option',
  '--iconv',
  '--checksum-choice',
  '--compress-choice',
  '--compress-level',
  '--skip-compress',
  '--max-delete',
  '--modify-window',
  '--info',
  '--debug',
  '--config',
  '--dparam',
  '--address',
  '--protocol',
  '--outbuf',
  '--stop-after',
  '--stop-at'
]

/** A remote rsync location (`host:path`, `user@host::module`, `rsync://…`): no local file. */
const isRemote = (a: string): boolean => /^rsync:\/\//.test(a) || /^[^/]*:/.test(a)

/** rsync: the local destination is written recursively (names come from the sources); batch and log files are written. */
export function rsyncCommand(args: ArgValue[], out: CommandEffects): void {
  out.readOnly = false
  const { options, operands } = getopt(args, { short: 'eBTfM@', long: RSYNC_VALUED_LONG })
  const local = operands.filter((a): a is string => typeof a === 'string' && !isRemote(a))
  if (operands.some((a) => a === null)) out.unknown.push('an argument of rsync contains an expansion')
  const listOnly = operands.length < 2 || options.some((o) => isOpt(o, undefined, '--list-only'))
  const dest = listOnly ? undefined : operands[operands.length - 1]
  for (const o of options) {
    if (isOpt(o, '-e', '--rsh', '--rsync-path') || isOpt(o, '-M', '--remote-option'))
      out.unknown.push(`rsync ${o.name} runs a program`)
    else if (isOpt(o, undefined, '--log-file', '--write-batch')) {
      const f = fileOf(o, 'rsync', out)
      if (f !== undefined) out.writes.push(f)
    } else if (isOpt(o, undefined, '--only-write-batch')) {
      const f = fileOf(o, 'rsync', out)
      if (f !== undefined) out.writes.push(f, `${f}.sh`)
    } else if (
      isOpt(o, undefined, '--read-batch', '--files-from', '--exclude-from', '--include-from', '--password-file')
    ) {
      const f = fileOf(o, 'rsync', out)
      if (f !== undefined && f !== '-') out.reads.push(f)
    } else if (
      isOpt(o, '-T', '--temp-dir') ||
      isOpt(o, undefined, '--backup-dir', '--partial-dir', '--compare-dest', '--copy-dest', '--link-dest')
    ) {
      // Relative to the destination, as rsync resolves them.
      const f = fileOf(o, 'rsync', out)
      if (f !== undefined && typeof dest === 'string' && !isRemote(dest))
        out.writesBelow.push(f.startsWith('/') ? f : `${dest}/${f}`)
    }
  }
  out.recursive = true
  for (const a of local) {
    if (a === dest) out.writesBelow.push(a)
    else out.reads.push(a)
  }
}

/** GNU patch: writes FILE (and `-o`/`-r` files); with no FILE it writes the files its diff names, which asks. */
export function patchCommand(args: ArgValue[], out: CommandEffects): void {
  out.readOnly = false
  const { options, operands } = getopt(args, {
    short: 'BdDFgiopPrVYz',
    long: [
      '--prefix',
      '--directory',
      '--ifdef',
      '--fuzz',
      '--get',
      '--input',
      '--output',
      '--strip',
      '--reject-file',
      '--version-control',
      '--basename-prefix',
      '--suffix',
      '--quoting-style'
    ]
  })
  let dir = ''
  let input: string | undefined
  for (const o of options) {
    if (isOpt(o, '-d', '--directory')) {
      const d = fileOf(o, 'patch', out)
      if (d !== undefined) dir = d.endsWith('/') ? d : d + '/'
    }
  }
  const at = (f: string): string => (f.startsWith('/') ? f : dir + f)
  for (const o of options) {
    if (isOpt(o, '-o', '--output') || isOpt(o, '-r', '--reject-file')) {
      const f = fileOf(o, 'patch', out)
      if (f !== undefined && f !== '-') out.writes.push(at(f))
    } else if (isOpt(o, '-i', '--input')) input = fileOf(o, 'patch', out)
  }
  const [file, patchFile] = operands
  if (input === undefined && typeof patchFile === 'string') input = patchFile
  if (input !== undefined && input !== '-') out.reads.push(input)
  if (file === null || patchFile === null) out.unknown.push('an argument of patch contains an expansion')
  else if (file === undefined) out.unknown.push('patch writes the files its diff names, which the engine does not read')
  else out.writes.push(at(file))
}
