import type { ArgValue, CommandEffects } from './readOnlyCommands'
import { isLongOption, isOption } from './shellArgs'

/**
 * sed (GNU sed manual, "sed scripts"): `-i` writes every file argument; in the script, `w`/`W`
 * and the `s///w` flag write a file, `r`/`R` read one, `e` and the `s///e` flag run code. A
 * script we cannot parse, or `-f FILE`, is unknown.
 */
export function sedCommand(args: ArgValue[], out: CommandEffects): void {
  const scripts: string[] = []
  const files: string[] = []
  let inPlace = false
  let explicitScript = false
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === null) {
      out.unknown.push('an argument of sed contains an expansion')
      return
    }
    if (a.startsWith('--') && a !== '--') {
      // GNU sed takes any unambiguous prefix (`--exp=…`, `--in-pl`): the dangerous options are
      // matched first, and a long option sed does not have is not guessed at.
      if (isLongOption(a, '--expression')) {
        const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i]
        if (typeof v !== 'string') {
          out.unknown.push('sed script cannot be read')
          return
        }
        scripts.push(v)
        explicitScript = true
        continue
      }
      if (isLongOption(a, '--file')) {
        out.unknown.push('sed -f runs a script file we cannot see')
        return
      }
      if (isLongOption(a, '--in-place')) {
        inPlace = true
        continue
      }
      if (isLongOption(a, '--line-length')) {
        if (!a.includes('=')) i++
        continue
      }
      if (SED_FLAGS.some((f) => isLongOption(a, f)) && !a.includes('=')) continue
      out.unknown.push(`sed option ${a} is not known to the permission engine`)
      return
    }
    if (isOption(a)) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]
        if (c === 'i' || c === 'I') {
          inPlace = true
          break
        }
        if (c === 'f') {
          out.unknown.push('sed -f runs a script file we cannot see')
          return
        }
        if (c === 'e' || c === 'l') {
          const v = j + 1 < a.length ? a.slice(j + 1) : args[++i]
          if (c === 'e') {
            if (typeof v !== 'string') {
              out.unknown.push('sed script cannot be read')
              return
            }
            scripts.push(v)
            explicitScript = true
          }
          break
        }
        if (!'nErsuz'.includes(c)) {
          out.unknown.push(`sed option -${c} is not known to the permission engine`)
          return
        }
      }
      continue
    }
    if (!explicitScript && scripts.length === 0) scripts.push(a)
    else files.push(a)
  }
  for (const s of scripts) sedScript(s, out)
  if (inPlace) {
    out.readOnly = false
    out.writes.push(...files)
  } else out.reads.push(...files)
}

/** GNU sed's long options that take no value and change nothing but output (sed --help). */
const SED_FLAGS = [
  '--quiet',
  '--silent',
  '--regexp-extended',
  '--separate',
  '--null-data',
  '--zero-terminated',
  '--unbuffered',
  '--posix',
  '--debug',
  '--sandbox',
  '--help',
  '--version'
]

/** Walk a sed script command by command; anything not understood makes it unknown. */
function sedScript(script: string, out: CommandEffects): void {
  let i = 0
  const restOfLine = (): string => {
    const end = script.indexOf('\n', i)
    const text = script.slice(i, end < 0 ? script.length : end).trim()
    i = end < 0 ? script.length : end
    return text
  }
  const skipDelimited = (): boolean => {
    const d = script[i++]
    if (d === undefined || d === '\\' || d === '\n') return false
    while (i < script.length && script[i] !== d) i += script[i] === '\\' ? 2 : 1
    if (i >= script.length) return false
    i++
    return true
  }
  const address = (): boolean => {
    if (/[0-9$]/.test(script[i] ?? '')) {
      while (/[0-9$~]/.test(script[i] ?? '')) i++
      return true
    }
    if (script[i] === '/') return skipDelimited()
    if (script[i] === '\\') {
      i++
      return skipDelimited()
    }
    return true
  }
  while (i < script.length) {
    while (/[\s;{}!]/.test(script[i] ?? '')) i++
    if (i >= script.length) break
    if (!address()) return void out.unknown.push('sed address not understood')
    if (script[i] === ',') {
      i++
      if (!address()) return void out.unknown.push('sed address not understood')
    }
    while (/[\s!]/.test(script[i] ?? '')) i++
    const c = script[i++]
    if (c === undefined) break
    if (c === '{' || c === '}' || c === ';') continue
    if ('=dDgGhHnNpPxzFlLqQv'.includes(c)) {
      while (/[0-9]/.test(script[i] ?? '')) i++
      continue
    }
    if ('#:btTaic'.includes(c)) {
      restOfLine()
      continue
    }
    if (c === 'r' || c === 'R') {
      out.reads.push(restOfLine())
      continue
    }
    if (c === 'w' || c === 'W') {
      out.readOnly = false
      out.writes.push(restOfLine())
      continue
    }
    if (c === 'e') {
      out.readOnly = false
      const code = restOfLine()
      if (code) out.runs.push({ kind: 'script', code })
      else out.unknown.push('sed e runs the pattern space as a command')
      continue
    }
    if (c === 's' || c === 'y') {
      const d = script[i]
      if (!skipDelimited()) return void out.unknown.push(`sed ${c} not understood`)
      i--
      if (script[i] !== d || !skipDelimited()) return void out.unknown.push(`sed ${c} not understood`)
      if (c === 'y') continue
      while (i < script.length && /[gpiImM0-9ew]/.test(script[i])) {
        const f = script[i++]
        if (f === 'e') {
          out.readOnly = false
          out.unknown.push('the sed s///e flag runs the pattern space as a command')
        }
        if (f === 'w') {
          out.readOnly = false
          out.writes.push(restOfLine())
          break
        }
      }
      continue
    }
    return void out.unknown.push(`sed command '${c}' is not known to the permission engine`)
  }
}
