import type { ArgValue, CommandEffects } from './readOnlyCommands'
import { getopt, isOpt, type ParsedOption } from './shellOptions'

/**
 * Commands that write files named by their options or operands, or files whose names come from
 * elsewhere (an archive, a server): curl, wget, tar, unzip, rsync, patch. What each writes is
 * judged as an Edit (docs/permissions.md#permissions); a directory that receives files whose names the engine cannot
 * know is a recursive write of that directory (`writesBelow`) and the command asks (`unknown`).
 * Sources: each tool's man page (curl 8, GNU Wget 1.21, GNU tar 1.34, Info-ZIP UnZip 6, rsync
 * 3.2, GNU patch 2.7).
 */

const value = (o: ParsedOption): string | null | undefined => (o.missing ? undefined : o.value)

/** The value of an option that names a file, or an `unknown` reason when it cannot be known. */
function fileOf(o: ParsedOption, cmd: string, out: CommandEffects): string | undefined {
  const v = value(o)
  if (typeof v === 'string') return v
  out.unknown.push(`${cmd} ${o.name}: its file cannot be read`)
  return undefined
}

const CURL_VALUED_LONG = [
  '--output',
  '--output-dir',
  '--dump-header',
  '--cookie-jar',
  '--cookie',
  '--trace',
  '--trace-ascii',
  '--stderr',
  '--libcurl',
  '--etag-save',
  '--etag-compare',
  '--hsts',
  '--alt-svc',
  '--config',
  '--upload-file',
  '--data',
  '--data-binary',
  '--data-raw',
  '--data-ascii',
  '--data-urlencode',
  '--json',
  '--form',
  '--form-string',
  '--header',
  '--user-agent',
  '--user',
  '--request',
  '--url',
  '--proxy',
  '--referer',
  '--max-time',
  '--connect-timeout',
  '--retry',
  '--cacert',
  '--cert',
  '--key',
  '--capath',
  '--time-cond',
  '--write-out',
  '--range',
  '--continue-at',
  '--unix-socket',
  '--resolve',
  '--connect-to',
  '--interface',
  '--limit-rate',
  '--max-filesize',
  '--variable',
  '--netrc-file',
  '--proxy-user',
  '--oauth2-bearer',
  '--aws-sigv4'
]

/** curl: `-o`/`-D`/`-c`/`--trace`… write their file (`-` is stdout); `-O` writes the URL's last segment into `--output-dir`; `-J` lets the server name it. */
export function curlCommand(args: ArgValue[], out: CommandEffects): void {
  out.readOnly = false
  const { options, operands } = getopt(args, { short: 'AbcCdDeEFHKmoPQrTtuUwxXyYz', long: CURL_VALUED_LONG })
  let remoteName = false
  let serverName = false
  let dir = '.'
  for (const o of options) {
    // `--output` is also a prefix of `--output-dir`: a name that can only be the latter is the directory.
    if (isOpt(o, undefined, '--output-dir') && !isOpt(o, undefined, '--output')) {
      const d = fileOf(o, 'curl', out)
      if (d !== undefined) dir = d
    } else if (
      isOpt(o, '-o', '--output') ||
      isOpt(o, '-D', '--dump-header') ||
      isOpt(o, '-c', '--cookie-jar') ||
      isOpt(o, undefined, '--trace', '--trace-ascii', '--stderr', '--libcurl', '--etag-save', '--hsts', '--alt-svc')
    ) {
      const f = fileOf(o, 'curl', out)
      if (f !== undefined && f !== '-' && f !== '%') out.writes.push(f)
    } else if (isOpt(o, '-O', '--remote-name', '--remote-name-all')) remoteName = true
    else if (isOpt(o, '-J', '--remote-header-name')) serverName = true
    else if (isOpt(o, '-K', '--config'))
      out.unknown.push(`curl ${o.name} reads options from a file the engine does not follow`)
    else if (isOpt(o, '-T', '--upload-file')) {
      const f = fileOf(o, 'curl', out)
      if (f !== undefined && f !== '-' && f !== '.') out.reads.push(f)
    } else if (
      isOpt(o, '-d', '--data', '--data-binary', '--data-ascii', '--data-urlencode', '--json', '--variable') ||
      isOpt(o, '-w', '--write-out')
    ) {
      const v = value(o)
      const at = typeof v === 'string' ? /^(?:[^@=]*=)?@(.+)$|^[^@=]*@(.+)$/.exec(v) : null
      if (at && (at[1] ?? at[2]) !== '-') out.reads.push((at[1] ?? at[2]) as string)
    } else if (isOpt(o, '-F', '--form')) {
      const v = value(o)
      const m = typeof v === 'string' ? /^[^=]*=[@<]([^;]+)/.exec(v) : null
      if (m && m[1] !== '-') out.reads.push(m[1])
    }
  }
  if (serverName) {
    out.writesBelow.push(dir)
    out.unknown.push('curl -J writes a file the server names')
  } else if (remoteName) {
    for (const url of operands) {
      const name =
        typeof url === 'string' && !/[[\]{}]/.test(url)
          ? /^(?:[a-z]+:\/\/)?[^/?#]*\/(?:[^?#]*\/)?([^/?#]+)(?:[?#].*)?$/i.exec(url)?.[1]
          : undefined
      if (name && name !== '.' && name !== '..') out.writes.push(`${dir}/${name}`)
      else
        out.unknown.push(
          `curl -O names the file it writes after the URL ${url === null ? '(with an expansion)' : JSON.stringify(url)}, which has no plain file name`
        )
    }
  }
}

const WGET_VALUED_LONG = [
  '--output-document',
  '--output-file',
  '--append-output',
  '--execute',
  '--input-file',
  '--base',
  '--tries',
  '--timeout',
  '--wait',
  '--quota',
  '--directory-prefix',
  '--level',
  '--accept',
  '--reject',
  '--domains',
  '--include-directories',
  '--exclude-directories',
  '--user-agent',
  '--header',
  '--post-data',
  '--post-file',
  '--body-file',
  '--body-data',
  '--method',
  '--save-cookies',
  '--load-cookies',
  '--warc-file',
  '--user',
  '--password',
  '--config',
  '--referer',
  '--ca-certificate',
  '--certificate',
  '--private-key',
  '--rejected-log',
  '--hsts-file',
  '--bind-address',
  '--limit-rate',
  '--cut-dirs',
  '--default-page',
  '--restrict-file-names',
  '--use-askpass'
]

/** wget: `-O FILE` writes FILE (`-` is stdout); without it the server's names land under `-P DIR` (default `.`): that asks. */
export function wgetCommand(args: ArgValue[], out: CommandEffects): void {
  out.readOnly = false
  const { options } = getopt(args, { short: 'oaeiBtOTwQPlADRIXU', long: WGET_VALUED_LONG })
  let document: string | undefined
  let prefix = '.'
  let spider = false
  for (const o of options) {
    if (isOpt(o, '-O', '--output-document')) document = fileOf(o, 'wget', out)
    else if (isOpt(o, '-P', '--directory-prefix')) prefix = fileOf(o, 'wget', out) ?? prefix
    else if (
      isOpt(o, '-o', '--output-file') ||
      isOpt(o, '-a', '--append-output') ||
      isOpt(o, undefined, '--save-cookies', '--rejected-log', '--hsts-file')
    ) {
      const f = fileOf(o, 'wget', out)
      if (f !== undefined && f !== '-') out.writes.push(f)
    } else if (isOpt(o, undefined, '--warc-file')) {
      const f = fileOf(o, 'wget', out)
      if (f !== undefined) out.writes.push(`${f}.warc.gz`)
    } else if (isOpt(o, '-e', '--execute') || isOpt(o, undefined, '--config', '--use-askpass'))
      out.unknown.push(
        `wget ${o.name} is not followed by the permission engine (it can set where files go or run a program)`
      )
    else if (isOpt(o, '-i', '--input-file') || isOpt(o, undefined, '--post-file', '--body-file', '--load-cookies')) {
      const f = fileOf(o, 'wget', out)
      if (f !== undefined && f !== '-') out.reads.push(f)
    } else if (isOpt(o, undefined, '--spider')) spider = true
  }
  if (spider) return
  if (document === undefined) {
    out.writesBelow.push(prefix)
    out.unknown.push('wget names the files it writes after the URL or the server')
  } else if (document !== '-') out.writes.push(document)
}

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
