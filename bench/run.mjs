// npm run bench: runs every benchmark under bench/<name>/ (its main.ts) in its own Node process
// and prints one JSON object per line per benchmark: {name, ...figures, target, verdict}.
// `npm run bench -- NAME…` runs only those; a benchmark in NAMED_ONLY runs only when named.
// Exits 0 once every benchmark has run; a missed target is a verdict, not a crash. A benchmark
// that crashes prints {name, verdict: "error", error} and the run exits 1.
import { build } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// peer: installs and runs the real Claude Code beside Swarmdesk (bench/peer), minutes on its own;
// bash: the Bash gap against Claude Code too (bench/bash), a minute or two under load;
// team-transport: JetStream against the files (bench/team-transport), starts its own nats-server
const NAMED_ONLY = new Set(['peer', 'bash', 'team-transport'])

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const only = process.argv.slice(2)
const all = readdirSync(join(root, 'bench'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(root, 'bench', d.name, 'main.ts')))
  .map((d) => d.name)
const unknown = only.filter((n) => !all.includes(n))
if (unknown.length > 0) {
  process.stderr.write(`npm run bench: no benchmark named ${unknown.join(', ')}; there are: ${all.sort().join(', ')}\n`)
  process.exit(2)
}
const names = all.filter((n) => (only.length === 0 ? !NAMED_ONLY.has(n) : only.includes(n))).sort()

let failed = false
for (const name of names) {
  const outfile = join(root, 'out', 'bench', `${name}.mjs`)
  await build({
    absWorkingDir: root,
    entryPoints: [join('bench', name, 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // dependencies load from node_modules, except xterm's CommonJS packages, whose named exports
    // Node's ESM loader cannot see (the runtime's headless pane terminals import them)
    plugins: [
      {
        name: 'node-modules-external',
        setup: (b) =>
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@xterm/') ? undefined : { external: true }
          )
      }
    ],
    logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" }
  })
  try {
    const out = execFileSync(process.execPath, ['--expose-gc', outfile], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: 10 * 60_000
    })
    process.stdout.write(out.endsWith('\n') ? out : out + '\n')
  } catch (error) {
    failed = true
    process.stdout.write(JSON.stringify({ name, verdict: 'error', error: String(error.message ?? error) }) + '\n')
  }
}
process.exitCode = failed ? 1 : 0
