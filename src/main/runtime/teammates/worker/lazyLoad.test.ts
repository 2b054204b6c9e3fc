import { randomUUID } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BroadcastChannel } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { until, useWorkerTestbed } from './worker.testkit'

/**
 * The packages the worker bundle leaves in node_modules to load on first use
 * (scripts/build-node.mjs, WORKER_LAZY_PACKAGES; docs/teams.md#worker-teammate-memory), as they
 * appear in a path. Loaded through `require` (gray-matter, yaml) or `import()` of CommonJS
 * (turndown) they show in the worker's `require.cache`; the MCP SDK is ES modules, which do not.
 */
const LAZY = ['turndown', 'gray-matter', 'yaml', '@modelcontextprotocol/sdk']

describe('worker teammate start-up', () => {
  const bed = useWorkerTestbed('swarmdesk-worker-lazy')

  it('a teammate idle after a text turn has loaded none of the packages the bundle leaves for first use', async () => {
    const channel = `swarmdesk-lazy-${randomUUID()}`
    const prelude = join(bed.home, `cache-report-${randomUUID()}.mjs`)
    // answers `modules?` with the files in the worker's require.cache
    writeFileSync(
      prelude,
      [
        "import { createRequire } from 'node:module'",
        "import { BroadcastChannel } from 'node:worker_threads'",
        'const require = createRequire(import.meta.url)',
        `const channel = new BroadcastChannel(${JSON.stringify(channel)})`,
        'channel.unref()',
        "channel.onmessage = (event) => { if (event.data === 'modules?') channel.postMessage(Object.keys(require.cache)) }"
      ].join('\n')
    )
    const [config] = await bed.prepareTeam('lazy', { alice: [{ text: 'Ready.' }] }, 'Say that you are ready.')
    const workers = bed.executor({ prelude, warmSpare: false })
    await workers.spawn(config!)
    await until('alice idle after her first turn', () => bed.allIdle('lazy', ['alice']))

    const ask = new BroadcastChannel(channel)
    try {
      const files = await new Promise<string[]>((resolve) => {
        ask.onmessage = (event) => resolve((event as { data: string[] }).data)
        ask.postMessage('modules?')
      })
      // the check can fail: a package the bundle requires at start shows here
      expect(files.some((f) => f.includes(join('node_modules', 'sh-syntax')))).toBe(true)
      for (const name of LAZY) expect(files.filter((f) => f.includes(join('node_modules', name)))).toEqual([])
    } finally {
      ask.close()
    }
  }, 60_000)
})
