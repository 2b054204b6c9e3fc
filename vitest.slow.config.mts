import { defineConfig } from 'vitest/config'

/**
 * The slow tests (`*.slow.test.ts`), left out of `npm test`: `npm run test:slow`, also run by
 * `.ci/run`. The same pool and global setup as vitest.config.mts (forks, never threads: node-pty).
 */
export default defineConfig({
  test: {
    include: ['src/**/*.slow.test.ts'],
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    globalSetup: ['scripts/test-global-setup.mjs']
  }
})
