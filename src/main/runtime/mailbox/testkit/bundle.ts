import { build } from 'esbuild'

/**
 * Bundles a TypeScript entry into one ESM file runnable by plain `node` and by `new Worker()`,
 * so tests and benchmarks can start real processes and threads over the real code.
 * Dependencies stay external (resolved from the repository's node_modules).
 * @param outfile must end in `.mjs`, and lie inside the repository for node_modules to resolve.
 */
export async function bundleEntry(entry: string, outfile: string): Promise<string> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" }
  })
  return outfile
}
