import type { ArgValue, CommandEffects } from './readOnlyCommands'

/**
 * find (GNU findutils): roots are read; -exec/-ok run code on what is found (`{}` stands for
 * every file below the roots, so their paths are judged as whole trees); -delete writes the
 * trees below the roots; -fprint* write their file.
 */
export function findCommand(args: ArgValue[], out: CommandEffects): void {
  let i = 0
  const roots: string[] = []
  for (; i < args.length; i++) {
    const a = args[i]
    if (a === null) {
      out.unknown.push('an argument of find contains an expansion')
      return
    }
    if (a.startsWith('-') || a === '(' || a === '!') break
    roots.push(a)
  }
  if (roots.length === 0) roots.push('.')
  out.reads.push(...roots)
  for (; i < args.length; i++) {
    const a = args[i]
    if (a === null) continue
    if (['-exec', '-execdir', '-ok', '-okdir'].includes(a)) {
      out.readOnly = false
      const end = args.findIndex((x, k) => k > i && (x === ';' || x === '+'))
      if (end < 0) {
        out.unknown.push(`find ${a} has no end`)
        return
      }
      const inner = args.slice(i + 1, end)
      const found = inner.some((x) => x !== null && x.includes('{}'))
      // `{}` alone is each found file; inside a longer word (`{}.bak`) it is a name the engine cannot know.
      const argv = inner.flatMap((x): ArgValue[] =>
        x === '{}' ? roots : x !== null && x.includes('{}') ? [null] : [x]
      )
      const inFoundDirs = a === '-execdir' || a === '-okdir'
      out.runs.push({
        kind: 'argv',
        argv,
        extraArgsUnknown: false,
        ...(found || inFoundDirs ? { below: { roots, inFoundDirs } } : {})
      })
      i = end
    } else if (a === '-L' || a === '-follow') {
      out.readOnly = false
      out.unknown.push(`find ${a} follows symbolic links, which may lead outside the workspace`)
    } else if (a === '-delete') {
      out.readOnly = false
      out.writesBelow.push(...roots)
    } else if (['-fprint', '-fprint0', '-fls', '-fprintf'].includes(a)) {
      out.readOnly = false
      const v = args[++i]
      if (typeof v === 'string') out.writes.push(v)
      else out.unknown.push(`find ${a} has no file`)
      if (a === '-fprintf') i++
    } else if (['-newer', '-anewer', '-cnewer', '-samefile', '-files0-from'].includes(a)) {
      const v = args[++i]
      if (typeof v === 'string') out.reads.push(v)
    }
  }
}
