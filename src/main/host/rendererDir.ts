import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The built renderer, `<package root>/out/renderer` (electron-vite's output). The folder may not
 * exist yet: the host then answers 503 asking for `npm run build`.
 * @throws Error when no ancestor is the swarmdesk package (an incomplete installation).
 */
export function rendererDir(from: string = fileURLToPath(import.meta.url)): string {
  return join(packageRoot(from), 'out', 'renderer')
}

/**
 * The swarmdesk package's root, found by walking up from this module to the package.json named
 * `swarmdesk`, so it works from the sources (tests) and from the CLI bundle (out/node) alike.
 * @throws Error when no ancestor is the swarmdesk package (an incomplete installation).
 */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from)
  for (;;) {
    if (isSwarmdeskPackage(dir)) return dir
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`Cannot find the swarmdesk package above ${from}; the installation is incomplete.`)
    dir = parent
  }
}

function isSwarmdeskPackage(dir: string): boolean {
  const file = join(dir, 'package.json')
  if (!existsSync(file)) return false
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'swarmdesk'
  } catch {
    return false
  }
}
