import { defineConfig } from 'vitest/config'

/**
 * The slow tests (`*.slow.test.ts`, `npm run test:slow`, also run by `.ci/run`): real programs
 * driven end to end for minutes, such as the interactive Claude Code with its agent team. Kept out
 * of `npm test` so it stays fast; forks, as in vitest.config.mts (node-pty).
 */
export default defineConfig({
  test: {
    include: ['src/**/*.slow.test.ts', 'bench/**/*.slow.test.ts'],
    pool: 'forks',
    testTimeout: 300_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    globalSetup: ['scripts/test-global-setup.mjs']
  }
})
