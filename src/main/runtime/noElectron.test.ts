import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The runtime runs in the CLI, in worker threads, in `swarmdesk teammate` processes and behind the
// web host, none of which has Electron (STYLE.md: src/main/runtime never imports electron). This
// checks every module under src/main/runtime, src/main/app, src/shared, src/main/cli and src/main/host.

const src = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const ELECTRON_IMPORT = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](?:electron|@electron\/[^'"]+)['"]/

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mts|cts)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
}

describe('runtime code is free of Electron', () => {
  it('no module of the runtime, the application layer, the shared contracts, the CLI or the web host imports electron', () => {
    const offenders = ['main/runtime', 'main/app', 'shared', 'main/cli', 'main/host']
      .flatMap((d) => sources(join(src, d)))
      .filter((file) => ELECTRON_IMPORT.test(readFileSync(file, 'utf8')))
      .map((file) => relative(src, file))
    expect(offenders).toEqual([])
  })

  it('the pattern catches each way of importing electron', () => {
    // the samples are assembled, so this file never holds an import of electron itself
    const e = 'electron'
    for (const line of [
      `import { app } from '${e}'`,
      `const e = require("${e}")`,
      `await import('${e}')`,
      `import type { X } from '@${e}/fuses'`
    ])
      expect(ELECTRON_IMPORT.test(line)).toBe(true)
    expect(ELECTRON_IMPORT.test("import { x } from './electronish'")).toBe(false)
  })
})
