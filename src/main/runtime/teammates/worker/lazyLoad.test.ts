import { randomUUID } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BroadcastChannel } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { Script } from 'node:vm'
import { nodeBundlePath } from '../../install'
import { WORKER_BUNDLE_WRAPPER } from './codeCache'
import { createMailbox } from '../../mailbox'
import { until, useWorkerTestbed } from './worker.testkit'

/**
 * The packages the worker bundle leaves in node_modules to load on first use
 * (scripts/build-node.mjs, WORKER_LAZY_PACKAGES; docs/teams.md#worker-teammate-memory), as they
 * appear in a path. Loaded through `require` (gray-matter, yaml, the grep engine re2js) or
 * `import()` of CommonJS (turndown) they show in the worker's `require.cache`; the MCP SDK is ES
 * modules, which do not. The NATS client loads with a team store on a server (nats.test.ts).
 */
const LAZY = ['turndown', 'gray-matter', 'yaml', '@modelcontextprotocol/sdk', 're2js', '@nats-io']

describe('worker teammate start-up', () => {
  const bed = useWorkerTestbed('swarmdesk-worker-lazy')

  it("bundles zod's English messages only (scripts/build-node.mjs, zodEnglishOnly)", () => {
    const bundle = readFileSync(nodeBundlePath('teammate-worker'), 'utf8')
    expect(bundle).toContain('Invalid input: expected') // en
    expect(bundle).not.toContain('Eingabe') // de
    expect(bundle).not.toContain('Entr\\xE9e invalide') // fr, as the ASCII bundle writes it
  })

  it('is built as the CommonJS wrapper function itself, which the bootstrap compiles as read (no wrapped copy)', () => {
    const bundle = readFileSync(nodeBundlePath('teammate-worker'), 'utf8')
    expect(bundle.startsWith(WORKER_BUNDLE_WRAPPER)).toBe(true)
    // as written, it is one function expression (closed at its end): running it runs nothing of the bundle
    expect(typeof new Script(bundle).runInThisContext()).toBe('function')
  })

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
        // Node's built-in modules the worker loaded show as 'NativeModule <id>' in process.moduleLoadList
        "channel.onmessage = (event) => { if (event.data === 'modules?') channel.postMessage([...Object.keys(require.cache), ...process.moduleLoadList]) }"
      ].join('\n')
    )
    const [config] = await bed.prepareTeam(
      'lazy',
      {
        alice: [
          { text: 'Ready.' },
          { tools: [{ name: 'Grep', input: { pattern: 'needle', output_mode: 'count' } }] },
          { text: 'Found it.' }
        ]
      },
      'Say that you are ready.'
    )
    writeFileSync(join(bed.work, 'haystack.txt'), 'hay\nneedle\n')
    const workers = bed.executor({ prelude, warmSpare: false })
    await workers.spawn(config!)
    await until('alice idle after her first turn', () => bed.allIdle('lazy', ['alice']))

    const ask = new BroadcastChannel(channel)
    const loaded = (): Promise<string[]> =>
      new Promise<string[]>((resolve) => {
        ask.onmessage = (event) => resolve((event as { data: string[] }).data)
        ask.postMessage('modules?')
      })
    const inNodeModules = (files: string[], name: string): string[] =>
      files.filter((f) => f.includes(join('node_modules', name)))
    try {
      const files = await loaded()
      // the check can fail: a package the bundle requires at start shows here
      expect(files.some((f) => f.includes(join('node_modules', 'sh-syntax')))).toBe(true)
      for (const name of LAZY) expect(inNodeModules(files, name)).toEqual([])
      // its model requests went through the main thread (httpClient.ts): Node's fetch never loaded
      // here, while the checks above see the built-ins it did load
      expect(files).toContain('NativeModule internal/worker/io')
      expect(files.filter((f) => f.includes('undici'))).toEqual([])

      // and a lazy package does load, in the worker, on its first use: her Grep loads the grep engine
      const mailbox = createMailbox({ home: bed.home })
      await mailbox.send('lazy', 'alice', { from: 'team-lead', text: 'Find the needle.', summary: 'grep' })
      await until('alice idle after her Grep', async () => {
        const idle = (await mailbox.read('lazy', 'team-lead')).messages.filter(
          (m) => m.message.from === 'alice' && m.message.text.includes('idle_notification')
        )
        return idle.length >= 2
      })
      expect(inNodeModules(await loaded(), 're2js')).not.toEqual([])
    } finally {
      ask.close()
    }
  }, 60_000)
})
