import type { ArgValue, CommandEffects } from './readOnlyCommands'
import { fileOf, getopt, isOpt, optionValue } from './shellOptions'

/**
 * Commands that download into files their options name, or that the server names: curl and wget.
 * What each writes is judged as an Edit (docs/permissions.md#permissions). Sources: curl 8 and GNU
 * Wget 1.21 man pages.
 */

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
      const v = optionValue(o)
      const at = typeof v === 'string' ? /^(?:[^@=]*=)?@(.+)$|^[^@=]*@(.+)$/.exec(v) : null
      if (at && (at[1] ?? at[2]) !== '-') out.reads.push((at[1] ?? at[2]) as string)
    } else if (isOpt(o, '-F', '--form')) {
      const v = optionValue(o)
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
