import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs'
import { expect, test as base, type Page, type TestInfo } from '@playwright/test'
import { startServe, type ServedWorkspace } from './serve'
import { createTempRepo } from './workspace'

/** A scenario file's content (docs/scenarios.md#scripted-model-scenarios), written by the test. */
export type ScenarioObject = { name?: string; prompt?: string; agents: Record<string, Array<Record<string, unknown>>> }

interface Fixtures {
  /** A fresh git repository, removed after the test. */
  repo: string
  /**
   * Starts `swarmdesk serve` on `repo` with this scenario, or against `model` (an endpoint and key)
   * with none (and permission mode and `--fork`, when given); stopped
   * after the test, which then checks it exited 0.
   */
  serve: (
    scenario: ScenarioObject | undefined,
    options?: { permissionMode?: string; fork?: boolean; model?: { baseUrl: string; apiKey?: string } }
  ) => Promise<ServedWorkspace>
}

/** Playwright's `test` with a fresh repository and a serve process per test. */
export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; this one has none
  repo: async ({}, use) => {
    const dir = createTempRepo()
    await use(dir)
    rmSync(dir, { recursive: true, force: true })
  },
  serve: async ({ repo }, use, testInfo) => {
    const started: ServedWorkspace[] = []
    await use(async (scenario, options) => {
      const served = await startServe({ cwd: repo, ...(scenario ? { scenario } : {}), ...options })
      started.push(served)
      return served
    })
    for (const served of started) {
      const stderr = served.stderr()
      const code = await served.stop()
      if (stderr) await testInfo.attach('serve-stderr', { body: stderr, contentType: 'text/plain' })
      expect(code, `swarmdesk serve should stop cleanly on SIGTERM; stderr:\n${stderr}`).toBe(0)
    }
  }
})

export { expect }

/** Sends `text` to the leader from the prompt box (Enter), once the box takes input. */
export async function promptLeader(page: Page, text: string): Promise<void> {
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await expect(input).toBeEnabled()
  await input.fill(text)
  await input.press('Enter')
}

/**
 * The page's window as the e2e tests see it: the renderer's test hook, `window.__swarmdeskTest`
 * (src/renderer/src/app/testHook.ts, `SwarmdeskTestHook`), absent before the renderer installed it.
 */
type HookedWindow = {
  __swarmdeskTest?: {
    paneText(agentId: string): string
    paneListeners(): number
    paneSize(agentId: string): { cols: number; rows: number } | undefined
  }
}

/** The leader's pane text, read through the renderer's test hook (`window.__swarmdeskTest`). */
export function paneText(page: Page, agentId = 'team-lead'): Promise<string> {
  return page.evaluate((id) => (window as unknown as HookedWindow).__swarmdeskTest?.paneText(id) ?? '', agentId)
}

/** The size (character cells) an agent's pane last reported to main, through the test hook; undefined before one. */
export function paneSize(page: Page, agentId: string): Promise<{ cols: number; rows: number } | undefined> {
  return page.evaluate((id) => (window as unknown as HookedWindow).__swarmdeskTest?.paneSize(id), agentId)
}

/** The page's live pane-owner subscriptions, through the test hook (0 with no panes); undefined before the hook. */
export function paneListeners(page: Page): Promise<number | undefined> {
  return page.evaluate(() => (window as unknown as HookedWindow).__swarmdeskTest?.paneListeners())
}

/**
 * The terminal size the kernel holds (`{cols, rows}`) for the live `process` teammate `name` working
 * in `repo` (its Node process, `… teammate --team T --name <name> --cwd <repo…>`, found in /proc;
 * `stty` reads the terminal its stdout is), or undefined when no such process runs.
 */
export function processTeammateTerminalSize(repo: string, name: string): { cols: number; rows: number } | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')
      const at = (flag: string) => argv[argv.indexOf(flag) + 1]
      if (!argv.includes('teammate') || at('--name') !== name || !at('--cwd')?.startsWith(repo)) continue
      const [rows, cols] = execFileSync('stty', ['-F', readlinkSync(`/proc/${entry}/fd/1`), 'size'], {
        encoding: 'utf8'
      })
        .trim()
        .split(' ')
        .map(Number)
      return { cols: cols!, rows: rows! }
    } catch {
      // gone while we looked
    }
  }
  return undefined
}

/** Waits until the agent's pane shows `text`. */
export async function expectPaneToContain(page: Page, text: string | RegExp, agentId = 'team-lead'): Promise<void> {
  await expect
    .poll(() => paneText(page, agentId), { message: `pane ${agentId} should show ${String(text)}`, timeout: 20_000 })
    .toMatch(typeof text === 'string' ? new RegExp(escapeRegExp(text)) : text)
}

/**
 * Saves a full-page screenshot as test-results/<test>/<name>.png and attaches it to the report.
 * Taken right after the DOM assertions on the same state: the picture is for people, the
 * assertions are the test.
 */
export async function snap(page: Page, testInfo: TestInfo, name: string): Promise<string> {
  const path = testInfo.outputPath(`${name}.png`)
  await page.screenshot({ path, fullPage: true })
  await testInfo.attach(name, { path, contentType: 'image/png' })
  return path
}

/**
 * Answers "Allow once" on every permission card of the agents `agentIds` as the cards come, until
 * the leader's pane shows `done` (or `timeoutMs` passes; the caller's assertion on `done` then
 * fails). A card whose answer is on its way has its buttons disabled and then leaves the DOM: only
 * an enabled button is clicked, and a click that loses that race is simply retried on the next card.
 */
export async function allowEveryRequestUntil(
  page: Page,
  agentIds: string | string[],
  done: string,
  timeoutMs = 120_000
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  const cards = [agentIds]
    .flat()
    .map((id) => `section.perm-card[data-agent-id="${id}"]`)
    .join(', ')
  while (!(await paneText(page)).includes(done) && Date.now() < deadline) {
    // a request has a card in the queue and one pinned to its agent's pane; whichever is on screen will do
    const buttons = page.locator(cards).getByRole('button', { name: /Allow once/ })
    let clicked = false
    for (let i = 0, n = await buttons.count(); i < n && !clicked; i++) {
      const allow = buttons.nth(i)
      if ((await allow.isVisible().catch(() => false)) && (await allow.isEnabled().catch(() => false)))
        clicked = await allow.click({ timeout: 5_000 }).then(
          () => true,
          () => false
        )
    }
    if (!clicked) await page.waitForTimeout(250)
  }
}

/**
 * After Space lifts an item with dnd-kit's keyboard sensor: waits until the sensor listens for the
 * arrow keys. It adds that listener in a 0 ms timer when the drag starts, so a key pressed sooner
 * (on a loaded machine, even after the lift is announced) is lost; a 0 ms timer set in the page
 * now runs after it.
 */
export async function keyboardDragReady(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => setTimeout(resolve, 0)))
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
