import { build } from 'esbuild'

/**
 * Bundles a TypeScript entry into one ESM file runnable by plain `node` and by `new Worker()`,
 * so tests and benchmarks can start real processes and threads over the real code.
 * Dependencies are bundled in too: one file starts faster than a tree of modules, which counts
 * when a test or benchmark starts dozens of processes on two cores.
 * @param outfile must end in `.mjs`.
 */
export async function bundleEntry(entry: string, outfile: string): Promise<string> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" }
  })
  return outfile
}
