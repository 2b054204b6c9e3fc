import picomatch from 'picomatch'
import { ToolError } from '../types'

/**
 * File types of Grep's `type` input → basename globs, a subset of ripgrep's `--type-list`
 * (same names, so `type: "ts"` means what it means to rg and to the model).
 */
export const GREP_FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  c: ['*.c', '*.h'],
  cpp: ['*.cpp', '*.cc', '*.cxx', '*.c++', '*.hpp', '*.hh', '*.hxx', '*.h', '*.inl'],
  cs: ['*.cs', '*.csx'],
  css: ['*.css', '*.scss'],
  docker: ['Dockerfile', 'Dockerfile.*', '*.dockerfile'],
  go: ['*.go'],
  h: ['*.h', '*.hh', '*.hpp'],
  html: ['*.htm', '*.html', '*.ejs'],
  java: ['*.java', '*.jsp'],
  js: ['*.js', '*.jsx', '*.mjs', '*.cjs', '*.vue'],
  json: ['*.json', '*.jsonc', '*.json5', 'composer.lock'],
  kotlin: ['*.kt', '*.kts'],
  lua: ['*.lua'],
  make: ['Makefile', 'makefile', 'GNUmakefile', '*.mk', '*.mak'],
  markdown: ['*.md', '*.markdown', '*.mdx', '*.mkd'],
  md: ['*.md', '*.markdown', '*.mdx', '*.mkd'],
  php: ['*.php', '*.phtml'],
  py: ['*.py', '*.pyi'],
  python: ['*.py', '*.pyi'],
  rb: ['*.rb', '*.rake', '*.gemspec', 'Gemfile', 'Rakefile'],
  ruby: ['*.rb', '*.rake', '*.gemspec', 'Gemfile', 'Rakefile'],
  rust: ['*.rs'],
  scala: ['*.scala', '*.sc', '*.sbt'],
  sh: ['*.sh', '*.bash', '*.zsh', '*.ksh', '.bashrc', '.bash_profile', '.profile', '.zshrc'],
  sql: ['*.sql', '*.psql'],
  swift: ['*.swift'],
  toml: ['*.toml', 'Cargo.lock'],
  ts: ['*.ts', '*.tsx', '*.mts', '*.cts'],
  txt: ['*.txt'],
  xml: ['*.xml', '*.xsd', '*.xsl', '*.xslt', '*.svg'],
  yaml: ['*.yaml', '*.yml']
}

/**
 * The file filter of Grep's `glob` and `type` inputs, over a path relative to the search root
 * (POSIX separators). `glob` holds one or more whitespace-separated globs, as rg's `--glob`: one
 * without a slash matches the file name at any depth (`*.{ts,tsx}`), one with a slash the
 * relative path (`src/**\/*.ts`), a leading `!` excludes. A file passes when it matches some
 * include glob (or there is none), no exclude glob, and the type's globs (if any).
 * @throws ToolError for an unknown type, listing the known ones.
 */
export function buildFileFilter(glob: string | undefined, type: string | undefined): (relativePath: string) => boolean {
  const globs = (glob ?? '').split(/\s+/).filter((g) => g !== '')
  const includes = globs.filter((g) => !g.startsWith('!')).map(compileGlob)
  const excludes = globs.filter((g) => g.startsWith('!')).map((g) => compileGlob(g.slice(1)))
  let typeMatch: ((path: string) => boolean) | undefined
  if (type !== undefined) {
    const typeGlobs = GREP_FILE_TYPES[type]
    if (!typeGlobs) {
      throw new ToolError(
        `Unknown file type ${JSON.stringify(type)}. Known types: ${Object.keys(GREP_FILE_TYPES).join(', ')}. Or use glob.`
      )
    }
    typeMatch = picomatch([...typeGlobs], { basename: true, dot: true })
  }
  return (path) =>
    (includes.length === 0 || includes.some((match) => match(path))) &&
    !excludes.some((match) => match(path)) &&
    (typeMatch === undefined || typeMatch(path))
}

function compileGlob(glob: string): (path: string) => boolean {
  return picomatch(glob.replace(/^\.\//, ''), { basename: !glob.includes('/'), dot: true })
}
