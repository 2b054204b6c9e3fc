import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { expect, expectPaneToContain, paneSize, paneText, test, type ScenarioObject } from './fixtures'

/**
 * Tries the pane pipeline (docs/ui.md#the-workspace-ui, issue 7) the way a user would: a command mixing 30,000 plain
 * coloured lines with cursor-moving output, ticking while its pane is off screen (Single layout),
 * watched by two pages at once, one of which reloads.
 */
/**
 * A Node script that prints 30,000 coloured rows at once, then a tick every 60 ms, then cursor
 * tricks and MIX-END. It ticks `ticks` times at least, and with `untilFile` on until that file
 * exists, so a test whose steps outlast the ticks on a slow machine still sees it print.
 */
const mixScript = (ticks: number, untilFile?: string): string => `
const out = (s) => process.stdout.write(s)
let buf = ''
for (let i = 0; i < 30000; i++) buf += '\\x1b[3' + (i % 7 + 1) + 'mrow ' + i + ' ' + '漢字😀'.repeat(i % 3) + '\\x1b[0m\\n'
out(buf)
let t = 0
const timer = setInterval(() => {
  out('tick ' + t + (t % 5 === 0 ? ' progress 0%\\rtick ' + t + ' progress 100%' : '') + '\\n')
  if (++t < ${ticks}${untilFile ? ` || !require('fs').existsSync(${JSON.stringify(untilFile)})` : ''}) return
  clearInterval(timer)
  out('up1\\nup2\\nup3\\nup4\\nup5\\n\\x1b[5Arewritten\\x1b[5B\\r')
  out('\\x1b[2;6r\\x1b[6;1Hinside region\\n\\n\\x1b[r\\x1b[40;1H\\n')
  out('\\x1b[?1049h\\x1b[Hfull screen program\\x1b[?1049l')
  out('L'.repeat(500) + '\\n')
  out('MIX-END\\n')
}, 60)
`

const SCENARIO: ScenarioObject = {
  name: 'pane-output',
  agents: {
    'team-lead': [
      {
        tools: [{ name: 'Agent', input: { subagent_type: 'general-purpose', description: 'side', prompt: 'Say hi.' } }]
      },
      { tools: [{ name: 'Bash', input: { command: 'node mix.js', timeout: 120000 } }] },
      { text: 'Mixed output done.' },
      ...Array.from({ length: 6 }, () => ({ text: 'Noted.' }))
    ],
    'type:general-purpose': [{ text: 'hi from the side subagent' }]
  }
}

function ticks(text: string): number[] {
  return Array.from(text.matchAll(/^tick (\d+)/gm), (m) => Number(m[1]))
}

function checkTicks(text: string, label: string): void {
  const t = ticks(text)
  const dupes = t.filter((n, i) => t.indexOf(n) !== i)
  expect(dupes, `${label}: ticks shown twice`).toEqual([])
  // the scroll region at the end scrolls a few ticks off the screen for good: order, not contiguity
  for (let i = 1; i < t.length; i++)
    expect(t[i], `${label}: ticks in order after ${t[i - 1]}`).toBeGreaterThan(t[i - 1]!)
}

const leaderText = (page: Page) => paneText(page, 'team-lead')

/**
 * The last 300 lines of a pane as two pages can be held to show alike: without the rows the mix's
 * scroll region rewrites (`inside region`, the blank lines it scrolls in, and the ticks, whose order
 * and uniqueness checkTicks holds instead). Where a scroll region lands depends on the pane's size
 * when the bytes were parsed, and main's copy — what a reloaded page restores — follows the size
 * reported last, which the page in Single layout changed mid-stream: main keeps one copy of a pane,
 * at one size, so two pages whose panes differed in size meanwhile may differ in those rows.
 */
const comparable = (text: string): string[] =>
  text
    .split('\n')
    .slice(-300)
    .filter((l) => l !== '' && l !== 'inside region' && !/^tick \d+/.test(l))

/**
 * Opens a second page on the workspace at 1400 × 900, sets both to Tiled (so the leader's pane has
 * one size in each) and has the leader run the mix from `page`, which is open already; resolves
 * once the leader's pane ticks, with the second page and the side subagent's id.
 */
async function startMix(page: Page, browser: Browser, url: string): Promise<{ second: Page; sub: string }> {
  const second = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage()
  await second.goto(url)
  for (const p of [page, second]) await p.getByRole('radio', { name: 'Tiled' }).click()
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill('Run the mix.')
  await input.press('Enter')
  const subPane = page.locator('section.pane.pane-sub[data-parent-id="team-lead"]').first()
  await expect(subPane).toBeVisible({ timeout: 60_000 })
  const sub = (await subPane.getAttribute('data-agent-id'))!
  await expect.poll(() => leaderText(page), { timeout: 60_000 }).toMatch(/^tick 3\b/m)
  return { second, sub }
}

/** The `pane.mute` request frames the page sends, gathered as they go. */
function muteFrames(page: Page): string[] {
  const frames: string[] = []
  page.on('websocket', (ws) =>
    ws.on(
      'framesent',
      (f) => void (typeof f.payload === 'string' && f.payload.includes('pane.mute') && frames.push(f.payload))
    )
  )
  return frames
}

/** Single layout on the subagent: the leader's pane leaves the page, which mutes the leader. */
async function showOnly(page: Page, sub: string, sentFrames: string[]): Promise<void> {
  await page.getByRole('radio', { name: 'Single' }).click()
  await page.getByRole('combobox', { name: 'Pane to show' }).selectOption(sub)
  await expect(page.locator('section.pane[data-agent-id="team-lead"]')).toHaveCount(0)
  await expect
    .poll(() => sentFrames.some((f) => /"agentId":"team-lead","muted":true/.test(f)), {
      message: 'the page mutes the leader it no longer shows'
    })
    .toBe(true)
}

test('mixed plain and full-screen output survives Single layout, a reload and a second page', async ({
  page,
  browser,
  serve,
  repo
}) => {
  test.setTimeout(240_000)
  writeFileSync(join(repo, 'mix.js'), mixScript(150))
  const served = await serve(SCENARIO, { permissionMode: 'bypassPermissions' })
  const sentFrames = muteFrames(page)
  await page.setViewportSize({ width: 1400, height: 900 })
  await page.goto(served.url)
  const { second, sub } = await startMix(page, browser, served.url)
  // Single layout on the subagent: the leader's pane is gone from this page (muted) while ticks come
  await showOnly(page, sub, sentFrames)
  const picker = page.getByRole('combobox', { name: 'Pane to show' })
  const hiddenAt = ticks(await leaderText(second)).at(-1) ?? 0
  await expect.poll(async () => ticks(await leaderText(second)).at(-1) ?? 0).toBeGreaterThan(hiddenAt + 20)
  // reload while the leader is not shown: the new page starts with it unshown
  await page.reload()
  await expect(page.getByTestId('pane-grid')).toBeVisible()
  if ((await page.getByRole('radio', { name: 'Single' }).getAttribute('aria-checked')) !== 'true')
    await page.getByRole('radio', { name: 'Single' }).click()
  await picker.selectOption(sub)
  await expect(page.locator('section.pane[data-agent-id="team-lead"]')).toHaveCount(0)
  await page.waitForTimeout(2000)
  await picker.selectOption('team-lead')
  await expect.poll(() => leaderText(page)).toMatch(/^tick \d+/m)
  checkTicks(await leaderText(page), 'after Single and back')
  await page.getByRole('radio', { name: 'Tiled' }).click()
  // the second page keeps receiving everything meanwhile
  checkTicks(await leaderText(second), 'second page')
  // reload the first page while ticking, resize it
  await page.reload()
  await expect.poll(() => leaderText(page)).toMatch(/^tick \d+/m)
  await expectPaneToContain(page, 'MIX-END')
  await expectPaneToContain(second, 'MIX-END')
  await expectPaneToContain(page, 'Mixed output done.')
  await expect.poll(() => leaderText(second)).toContain('Mixed output done.')
  // the comparison below holds only when both panes have one size: cursor-addressed output lands by rows
  expect(await paneSize(page, 'team-lead')).toEqual(await paneSize(second, 'team-lead'))
  const texts = { first: await leaderText(page), second: await leaderText(second) }
  for (const [label, text] of Object.entries(texts)) {
    checkTicks(text, label)
    expect(text, `${label}: the rewrite`).toContain('rewritten')
    expect(text.match(/MIX-END/g)?.length, `${label}: MIX-END once`).toBe(1)
    expect(text, `${label}: alt screen left nothing`).not.toContain('full screen program')
    expect(text).toContain('row 29999')
  }
  // the page that hid the pane and reloaded shows what the page that watched throughout shows
  expect(comparable(texts.first)).toEqual(comparable(texts.second))
  // both resized once the output is done: they reflow alike
  await page.setViewportSize({ width: 900, height: 700 })
  await second.setViewportSize({ width: 900, height: 700 })
  await page.waitForTimeout(1500)
  const resized = { first: await leaderText(page), second: await leaderText(second) }
  expect(comparable(resized.first)).toEqual(comparable(resized.second))
  // Tiled → Single → Tiled on the first page: the leader's pane comes back the same
  await page.getByRole('radio', { name: 'Single' }).click()
  await page.getByRole('combobox', { name: 'Pane to show' }).selectOption(sub)
  await page.getByRole('radio', { name: 'Tiled' }).click()
  await expect.poll(async () => comparable(await leaderText(page))).toEqual(comparable(resized.second))
  await second.context().close()
})

test('a reconnect and a closed second page while the leader is muted: output never stalls, nothing lost or twice', async ({
  page,
  browser,
  serve,
  repo
}) => {
  test.setTimeout(240_000)
  writeFileSync(join(repo, 'mix.js'), mixScript(400))
  const served = await serve(SCENARIO, { permissionMode: 'bypassPermissions' })
  const sentFrames = muteFrames(page)
  await page.setViewportSize({ width: 1400, height: 900 })
  // keep the page's sockets at hand, to drop them as a network failure would
  await page.addInitScript(() => {
    const Native = window.WebSocket
    const sockets: WebSocket[] = ((window as unknown as { __sockets: WebSocket[] }).__sockets = [])
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols)
        sockets.push(this)
      }
    } as typeof WebSocket
  })
  await page.goto(served.url)
  const { second, sub } = await startMix(page, browser, served.url)
  await showOnly(page, sub, sentFrames)
  await expect.poll(async () => ticks(await leaderText(second)).at(-1) ?? 0).toBeGreaterThan(40)
  const before = sentFrames.length
  // drop the muted page's socket: it reconnects while the leader's pane is still not shown
  const dropped = await page.evaluate(() => {
    const open = (window as unknown as { __sockets: WebSocket[] }).__sockets.filter(
      (w) => w.readyState === WebSocket.OPEN
    )
    for (const w of open) w.close()
    return open.length
  })
  expect(dropped).toBeGreaterThan(0)
  await expect
    .poll(
      () =>
        page.evaluate(
          () =>
            (window as unknown as { __sockets: WebSocket[] }).__sockets.filter((w) => w.readyState === WebSocket.OPEN)
              .length
        ),
      { message: 'the page reconnects' }
    )
    .toBeGreaterThan(0)
  await expect
    .poll(() => sentFrames.slice(before).some((f) => /"agentId":"team-lead","muted":true/.test(f)), {
      message: 'the page mutes the leader it still does not show, on the new connection'
    })
    .toBe(true)
  const leaderMutes = sentFrames.slice(before).filter((f) => f.includes('"agentId":"team-lead"'))
  expect(leaderMutes.at(-1), 'the last word on the new connection is a mute').toMatch(/"muted":true/)
  await expect.poll(async () => ticks(await leaderText(second)).at(-1) ?? 0).toBeGreaterThan(120)
  checkTicks(await leaderText(second), 'second page after the reconnect')
  // close the page that receives everything while the other has the leader muted
  await second.context().close()
  // the leader must finish: its last words reach the dashboard of the muted page
  await expect(page.getByText('Mixed output done.').first()).toBeVisible({ timeout: 90_000 })
  await page.getByRole('radio', { name: 'Tiled' }).click()
  await expectPaneToContain(page, 'MIX-END')
  const text = await leaderText(page)
  checkTicks(text, 'after the reconnect')
  expect(text).toContain('tick 399')
  expect(text).toContain('rewritten')
  expect(text.match(/MIX-END/g)?.length, 'MIX-END once').toBe(1)
  expect(text).not.toContain('full screen program')
})

test("a busy subagent's pane hidden with its × and shown again: its last line is there, nothing twice", async ({
  page,
  serve,
  repo
}) => {
  test.setTimeout(180_000)
  // it ticks until the test has seen every step it checks (the stop file), however slow the machine
  const stop = join(repo, 'mix.stop')
  writeFileSync(join(repo, 'mix.js'), mixScript(250, stop))
  const scenario: ScenarioObject = {
    name: 'pane-output-sub',
    agents: {
      'team-lead': [
        {
          tools: [
            { name: 'Agent', input: { subagent_type: 'general-purpose', description: 'mix', prompt: 'Run the mix.' } }
          ]
        },
        { text: 'The subagent is done.' },
        ...Array.from({ length: 6 }, () => ({ text: 'Noted.' }))
      ],
      'type:general-purpose': [
        { tools: [{ name: 'Bash', input: { command: 'node mix.js', timeout: 120000 } }] },
        { text: 'mix finished' }
      ]
    }
  }
  const served = await serve(scenario, { permissionMode: 'bypassPermissions' })
  await page.setViewportSize({ width: 1400, height: 900 })
  await page.goto(served.url)
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill('Run the mix in a subagent.')
  await input.press('Enter')
  const subPane = page.locator('section.pane.pane-sub[data-parent-id="team-lead"]').first()
  await expect(subPane).toBeVisible({ timeout: 60_000 })
  const sub = (await subPane.getAttribute('data-agent-id'))!
  await expect.poll(() => paneText(page, sub), { timeout: 60_000 }).toMatch(/^tick 20\b/m)
  await subPane.getByRole('button', { name: /^Hide .*'s pane$/ }).click()
  await expect(page.locator(`section.pane[data-agent-id="${sub}"]`)).toHaveCount(0)
  await page.waitForTimeout(4000)
  await page.getByRole('button', { name: 'Hidden (1) ▾' }).click()
  await page.getByRole('menuitem', { name: /^Show / }).click()
  await expect(page.locator(`section.pane[data-agent-id="${sub}"]`)).toBeVisible()
  // the pane restores from main's scrollback (a fetch): wait for it
  await expect.poll(async () => ticks(await paneText(page, sub)).at(-1) ?? 0).toBeGreaterThan(40)
  const shown = await paneText(page, sub)
  checkTicks(shown, 'just shown')
  const last = ticks(shown).at(-1)!
  // output keeps coming after the show: the next tick follows the last one shown, once
  await expect.poll(async () => ticks(await paneText(page, sub)).at(-1) ?? 0).toBeGreaterThan(last + 5)
  checkTicks(await paneText(page, sub), 'after the show')
  // hide and show again quickly, over and over, while it ticks: each restore races live chunks
  for (let i = 0; i < 8; i++) {
    await page
      .locator(`section.pane[data-agent-id="${sub}"]`)
      .getByRole('button', { name: /^Hide .*'s pane$/ })
      .click()
    await page.getByRole('button', { name: 'Hidden (1) ▾' }).click()
    await page.getByRole('menuitem', { name: /^Show / }).click()
  }
  await expect.poll(async () => ticks(await paneText(page, sub)).at(-1) ?? 0).toBeGreaterThan(last + 20)
  checkTicks(await paneText(page, sub), 'after hiding and showing eight times')
  // hidden while the window shrinks, shown at the new size
  await page
    .locator(`section.pane[data-agent-id="${sub}"]`)
    .getByRole('button', { name: /^Hide .*'s pane$/ })
    .click()
  await page.setViewportSize({ width: 1000, height: 650 })
  await page.waitForTimeout(1000)
  await page.getByRole('button', { name: 'Hidden (1) ▾' }).click()
  await page.getByRole('menuitem', { name: /^Show / }).click()
  const beforeResizeShow = ticks(await paneText(page, sub)).at(-1) ?? 0
  await expect.poll(async () => ticks(await paneText(page, sub)).at(-1) ?? 0).toBeGreaterThan(beforeResizeShow + 5)
  checkTicks(await paneText(page, sub), 'shown after a window resize')
  writeFileSync(stop, '')
  await expectPaneToContain(page, 'MIX-END', sub)
  const text = await paneText(page, sub)
  checkTicks(text, 'at the end')
  expect(text).toContain('tick 249')
  expect(text.match(/MIX-END/g)?.length).toBe(1)
})
