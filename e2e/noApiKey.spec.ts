import { startScriptedServer } from '../src/main/runtime/scripted'
import { expect, paneText, snap, test } from './fixtures'

/**
 * Issue 29 item 8: a first run without an API key opens. `swarmdesk serve` with no
 * ANTHROPIC_API_KEY and no `--scenario` serves the workspace with a "no API key" state saying
 * how to add one; what needs no model (the task board) works; a prompt gets a clear answer; and a
 * key entered in Settings for this run only starts the leader at once: the next prompt reaches the
 * model, a scripted server the test runs as a real endpoint (ANTHROPIC_BASE_URL), with that key.
 */
const KEY = 'sk-ant-api03-FOR-THIS-RUN-ONLY-2b9c'

test('serve without a key: the no-key state, a working task board, a key for this run, then the leader answers', async ({
  page,
  serve
}, testInfo) => {
  // a serve start, a task, Settings and a model turn: slow on a loaded two-core machine
  test.setTimeout(180_000)
  const server = await startScriptedServer({
    scenario: { apiKey: KEY, agents: { '*': [{ text: 'Hello from the model, reached with the key for this run.' }] } }
  })
  try {
    const frames: string[] = []
    page.on('websocket', (ws) =>
      ws.on('framereceived', (f) =>
        frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('latin1'))
      )
    )
    const served = await serve(undefined, { model: { baseUrl: server.url } })
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/)
    await page.goto(served.url)

    // the workspace opens in its no-key state, saying how to add one
    const banner = page.getByTestId('no-api-key')
    await expect(banner).toBeVisible()
    await expect(banner).toHaveAttribute('data-fix', 'environment')
    await expect(banner).toContainText('ANTHROPIC_API_KEY')
    await expect(banner).toContainText('for this run only')
    await expect(page.locator('section.pane[data-agent-id="team-lead"]')).toBeVisible()
    await snap(page, testInfo, '01-no-api-key')

    // a prompt typed now gets a clear answer, and nothing reached a model
    const input = page.getByRole('textbox', { name: 'Message to the leader' })
    await input.fill('Say hello')
    await input.press('Enter')
    await expect(page.getByText(/A prompt needs a model\. No API key is set/)).toBeVisible()
    expect(server.requests()).toHaveLength(0)

    // what needs no model works: a task made on the board
    await page.getByRole('tab', { name: 'Tasks' }).click()
    await page.getByRole('textbox', { name: 'New task subject' }).fill('Write the README')
    await page.getByRole('form', { name: 'New task' }).getByRole('button').click()
    await expect(page.locator('li[data-testid="task-card"]', { hasText: 'Write the README' })).toBeVisible()

    // Settings says how to restart with the variable, and takes a key for this run
    await banner.getByRole('button', { name: 'Open Settings' }).click()
    const section = page.getByTestId('settings-api-key')
    await expect(section.getByTestId('api-key-source')).toHaveText('none')
    await expect(section.getByTestId('api-key-warning')).toContainText('restart it with the variable set')
    await section.getByRole('textbox', { name: 'API key for this run' }).fill(KEY)
    await section.getByRole('button', { name: 'Use for this run' }).click()
    await expect(section.getByTestId('api-key-source')).toContainText('for this run only')
    await expect(banner).toBeHidden()
    await snap(page, testInfo, '02-key-for-this-run')
    await page.keyboard.press('Escape')

    // the leader starts with it at once: the prompt reaches the model with that key
    await input.fill('Say hello')
    await input.press('Enter')
    await expect
      .poll(() => paneText(page), { timeout: 90_000 })
      .toContain('Hello from the model, reached with the key for this run.')
    const requests = server.requests()
    expect(requests.length).toBeGreaterThan(0)
    expect(
      requests.every(
        (r) => (r.headers.authorization ?? '').replace(/^Bearer\s+/i, '') === KEY || r.headers['x-api-key'] === KEY
      )
    ).toBe(true)
    // the key was never sent back to the page
    expect(frames.some((f) => f.includes(KEY))).toBe(false)
    expect(await page.content()).not.toContain(KEY)
  } finally {
    await server.close()
  }
})
