import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// Rules of the code base itself (docs/design.md#code-conventions), so later work keeps them: a
// production module stays small enough to read whole, comments cite the project's own documents,
// and every such citation points at a heading that exists.

const ROOT = join(__dirname, '..')
/** Longest production module, in lines (docs/design.md#code-conventions). */
const MAX_PRODUCTION_LINES = 400

function tracked(...paths: string[]): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...paths], {
    cwd: ROOT,
    encoding: 'utf8'
  })
    .split('\n')
    .filter(Boolean)
}

const isProduction = (file: string): boolean =>
  /\.(ts|tsx)$/.test(file) && !/\.(test|spec)\.tsx?$|\.testkit\.ts$/.test(file)

/** GitHub's anchor of a Markdown heading: lower case, backticks and punctuation dropped, spaces to hyphens; repeats get -1, -2… */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  let inCode = false
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode
    const heading = !inCode && /^#{1,6}\s+(.*)$/.exec(line)
    if (!heading) continue
    const slug = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/`/g, '')
      .replace(/[^\p{L}\p{N}_\- ]/gu, '')
      .replace(/ /g, '-')
    const n = seen.get(slug) ?? 0
    seen.set(slug, n + 1)
    anchors.add(n === 0 ? slug : `${slug}-${n}`)
  }
  return anchors
}

describe('the code base', () => {
  it(`has no production module under src/ over ${MAX_PRODUCTION_LINES} lines`, () => {
    const long = tracked('src')
      .filter(isProduction)
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_PRODUCTION_LINES)
      .map((f) => `${f.file}: ${f.lines} lines (split it along a seam)`)
    expect(long).toEqual([])
  })

  it("cites the project's own documents in production code, never an outside spec", () => {
    const outside = tracked('src')
      .filter(isProduction)
      .filter((file) => readFileSync(join(ROOT, file), 'utf8').includes('SPEC §'))
    expect(outside).toEqual([])
  })

  it('cites only docs headings that exist', () => {
    const anchors = new Map(
      tracked('docs')
        .filter((f) => f.endsWith('.md'))
        .map((f) => [f, headingAnchors(readFileSync(join(ROOT, f), 'utf8'))])
    )
    const broken: string[] = []
    for (const file of tracked('src', 'bench', 'scripts', 'e2e', 'README.md').filter((f) =>
      /\.(ts|tsx|mjs|cjs|md)$/.test(f)
    )) {
      for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(
        /\bdocs\/([\w-]+\.md)(?:#([\p{L}\p{N}_-]+))?/gu
      )) {
        // tests and scripts name made-up files like docs/README.md in their fixtures: only an anchored citation counts there
        if (!m[2] && !isProduction(file) && !file.endsWith('README.md')) continue
        const doc = anchors.get(`docs/${m[1]}`)
        if (!doc) broken.push(`${file}: docs/${m[1]} does not exist`)
        else if (m[2] && !doc.has(m[2])) broken.push(`${file}: docs/${m[1]}#${m[2]} is not a heading of it`)
      }
    }
    expect(broken).toEqual([])
  })

  it('computes the anchors GitHub gives headings', () => {
    expect([
      ...headingAnchors('# The agent loop\n## `query()` and tools\n```\n# not a heading\n```\n## Tools\n## Tools')
    ]).toEqual(['the-agent-loop', 'query-and-tools', 'tools', 'tools-1'])
  })
})
