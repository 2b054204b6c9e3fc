// Builds the Node bundles before the tests, so tests that run bin/swarmdesk exercise the code
// under test rather than a stale build. A failed build removes the old bundle, so those tests
// fail on the missing bundle (with the build error above them) instead of passing on stale code;
// tests that do not need the bundle still run.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export default function setup() {
  try {
    execFileSync(process.execPath, [fileURLToPath(new URL('./build-node.mjs', import.meta.url))], { stdio: 'inherit' })
  } catch {
    rmSync(fileURLToPath(new URL('../out/node', import.meta.url)), { recursive: true, force: true })
    process.stderr.write('\nThe CLI bundle did not build (see above); tests that run bin/swarmdesk will fail.\n')
  }
}
