import { configDefaults, defineConfig } from 'vitest/config'

/**
 * Unit and integration tests. They run in child processes (`forks`), never worker threads:
 * node-pty aborts a worker thread that exits with a live pty (STACK.md). The global setup
 * builds the CLI bundle once, for the tests that run `bin/swarmdesk` as a user would.
 * `*.slow.test.ts` (a minute or more each, such as a real Claude Code session driven through the
 * workspace) run only in `npm run test:slow` (vitest.slow.config.mts), which `.ci/run` runs too.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: [...configDefaults.exclude, '**/*.slow.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    maxWorkers: 2,
    globalSetup: ['scripts/test-global-setup.mjs']
  }
})
