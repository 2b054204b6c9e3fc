import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PushChannel } from '../../shared/ipc'
import { toDisposable } from '../runtime/base/disposable'
import type { BridgeOptions } from './bridge'
import type { BridgedService } from './types'
import { startWebHost, type WebHost } from './webHost'

/** The CSP the fixture page declares in its meta tag. */
export const FIXTURE_CSP = "default-src 'self'; script-src 'self'; connect-src 'self'"

/** A host over a small built-renderer stand-in, and the files around it. */
export interface HostFixture {
  host: WebHost
  service: BridgedService
  /** The served directory. */
  staticDir: string
  /** A directory beside staticDir holding `secret.txt`, which must never be served. */
  outside: string
  dispose(): Promise<void>
}

/** Writes index.html (with a CSP meta), assets and a secret outside the served folder. */
export function writeStaticTree(root: string): { staticDir: string; outside: string } {
  const staticDir = join(root, 'renderer')
  const outside = join(root, 'private')
  mkdirSync(join(staticDir, 'assets'), { recursive: true })
  mkdirSync(outside)
  writeFileSync(
    join(staticDir, 'index.html'),
    `<!doctype html><html><head><meta charset="UTF-8" /><meta http-equiv="Content-Security-Policy" content="${FIXTURE_CSP}" /><script type="module" src="/assets/app.js"></script><link rel="stylesheet" href="/assets/app.css"></head><body><div id="root"></div></body></html>`
  )
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log("app")\n')
  writeFileSync(join(staticDir, 'assets', 'app.css'), 'body { margin: 0 }\n')
  writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET\n')
  return { staticDir, outside }
}

/** Starts a host on a free port. `service` defaults to one that answers nothing; `options.bridge` tunes its bridge. */
export async function startHostFixture(
  service: BridgedService = idleService(),
  options: { bridge?: BridgeOptions } = {}
): Promise<HostFixture> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-host-')))
  const { staticDir, outside } = writeStaticTree(root)
  const host = await startWebHost({ service, staticDir, port: 0, bridge: options.bridge })
  return {
    host,
    service,
    staticDir,
    outside,
    async dispose() {
      await host.close()
      rmSync(root, { recursive: true, force: true })
    }
  }
}

function idleService(): BridgedService {
  return {
    handle: async (channel: string) => {
      throw Object.assign(new Error(`unknown channel '${channel}'`), { name: 'IpcRequestError' })
    },
    onPush: (_listener: (channel: PushChannel, payload: unknown) => void) => toDisposable(() => undefined)
  }
}
