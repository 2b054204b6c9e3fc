import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

let cached: string | undefined

/**
 * The app's `resources/` folder (demo workspace, scenarios). Found by walking up from this module,
 * so it works from the sources (tests), the CLI bundle (out/node) and the packaged app alike.
 * @throws Error when no ancestor holds `resources/demo`.
 */
export function resourcesDir(): string {
  if (cached) return cached
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    if (existsSync(join(dir, 'resources', 'demo'))) return (cached = join(dir, 'resources'))
    const parent = dirname(dir)
    if (parent === dir)
      throw new Error(
        `Cannot find Swarmdesk's resources/ folder above ${fileURLToPath(import.meta.url)}; the installation is incomplete.`
      )
    dir = parent
  }
}
