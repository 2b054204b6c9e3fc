import { packageRoot } from '../runtime/install'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The built renderer, `<package root>/out/renderer` (electron-vite's output). The folder may not
 * exist yet: the host then answers 503 asking for `npm run build`.
 * @throws Error when no ancestor is the swarmdesk package (an incomplete installation).
 */
export function rendererDir(from: string = fileURLToPath(import.meta.url)): string {
  return join(packageRoot(from), 'out', 'renderer')
}

export { packageRoot }
