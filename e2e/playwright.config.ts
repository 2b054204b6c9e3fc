import { defineConfig } from '@playwright/test'

/**
 * End-to-end tests of the workspace UI in Chromium against the web host (STACK.md: the Electron
 * binary cannot run here, so the same renderer and runtime are driven through `swarmdesk serve`).
 * Debian's chromium, never a downloaded browser. One worker: each test starts its own serve
 * process (a runtime with PTYs), and the machine has 2 cores. Expects `npm run build` done.
 * `*.slow.spec.ts` run only with SWARMDESK_SLOW_TESTS=1 (`npm run test:slow`, which `.ci/run` runs).
 */
export default defineConfig({
  testDir: '.',
  testMatch: process.env.SWARMDESK_SLOW_TESTS === '1' ? '**/*.slow.spec.ts' : '**/*.spec.ts',
  testIgnore: process.env.SWARMDESK_SLOW_TESTS === '1' ? [] : ['**/*.slow.spec.ts'],
  outputDir: '../test-results',
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    headless: true,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.SWARMDESK_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync'
      ]
    }
  }
})
