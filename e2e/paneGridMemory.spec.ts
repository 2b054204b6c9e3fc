import type { Locator, Page } from '@playwright/test'
import { expect, expectPaneToContain, snap, test, type ScenarioObject, keyboardDragReady } from './fixtures'

/**
 * The pane grid remembered per workspace, and its headers at 16 panes (issue 7, Workspace UI 1):
 * layout, hidden panes, tile order and collapsed subagent groups survive a reload of the page;
 * at 16 tiled panes in a 1280×800 window every header stays one line, with its state chip and
 * tokens whole and the name truncated first.
 */

const pane = (page: Page, agentId: string): Locator => page.locator(`section.pane[data-agent-id="${agentId}"]`)
/** The top-level tiles beside the leader's pane, in the order shown. */
const tileOrder = (page: Page) =>
  page.locator('.pane-tiles > section.pane').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))

/** The leader launches three background subagents that answer at once and end. */
const THREE_HELPERS: ScenarioObject = {
  name: 'pane-memory',
  agents: {
    'team-lead': [
      {
        text: 'Sending three helpers off.',
        tools: ['alpha job', 'beta job', 'gamma job'].map((description) => ({
          name: 'Agent',
          input: { description, prompt: 'Answer at once.', run_in_background: true }
        }))
      },
      { text: 'All three are on their way.' },
      ...Array.from({ length: 6 }, () => ({ when: '<task-notification>', text: 'A helper reported back.' }))
    ],
    'alpha-job': [{ text: 'alpha answered.' }],
    'beta-job': [{ text: 'beta answered.' }],
    'gamma-job': [{ text: 'gamma answered.' }]
  }
}

test('layout, a hidden pane, the tile order and a collapsed group survive a reload of the page', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(120_000)
  const served = await serve(THREE_HELPERS, { permissionMode: 'bypassPermissions' })
  await page.goto(served.url)
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill('Send the helpers.')
  await input.press('Enter')
  for (const name of ['alpha-job', 'beta-job', 'gamma-job'])
    await expect(page.locator(`section.pane[aria-label="${name} pane"]`)).toBeVisible({ timeout: 30_000 })
  // the launch results read as lines, not as the tool's JSON
  await expectPaneToContain(page, /▸ launched background agent gamma-job \(id a[0-9a-f]+\)/)
  await expectPaneToContain(page, 'All three are on their way.')
  const ids = Object.fromEntries(
    await Promise.all(
      ['alpha-job', 'beta-job', 'gamma-job'].map(
        async (n) =>
          [n, (await page.locator(`section.pane[aria-label="${n} pane"]`).getAttribute('data-agent-id'))!] as const
      )
    )
  )
  const grid = page.getByTestId('pane-grid')
  // the three launches run at once, so the tiles come in the order the agents started
  const initial = await tileOrder(page)
  expect([...initial].sort()).toEqual(['alpha-job pane', 'beta-job pane', 'gamma-job pane'])
  // of the two that stay visible, the second is moved before the first
  const [stay, moved] = initial
    .filter((n): n is string => n !== null && n !== 'beta-job pane')
    .map((n) => n.replace(/ pane$/, '')) as [string, string]

  // tiled; beta hidden; the later tile moved before the earlier one (keyboard drag, waiting on the library's announcements)
  await page.getByRole('radio', { name: 'Tiled' }).click()
  await expect(grid).toHaveAttribute('data-layout', 'tiled')
  await pane(page, ids['beta-job']!).getByRole('button', { name: "Hide beta-job's pane" }).click()
  await expect(pane(page, ids['beta-job']!)).toHaveCount(0)
  // other drag-and-drop areas of the page have live regions of their own: wait for the one that speaks
  const announced = (text: string | RegExp) => page.locator('[id^="DndLiveRegion"]').filter({ hasText: text }).first()
  await pane(page, ids[moved]!)
    .getByRole('button', { name: `Move ${moved}'s pane` })
    .focus()
  await page.keyboard.press('Space')
  await keyboardDragReady(page)
  await expect(
    announced(new RegExp(`Picked up draggable item ${ids[moved]}|moved over droppable area ${ids[moved]}\\.`))
  ).toBeAttached()
  await page.keyboard.press('ArrowLeft')
  await expect(announced(`moved over droppable area ${ids[stay]}`)).toBeAttached()
  await page.keyboard.press('Space')
  await expect.poll(() => tileOrder(page)).toEqual([`${moved} pane`, `${stay} pane`])
  await snap(page, testInfo, '01-before-reload')

  await page.reload()
  await expect(grid).toHaveAttribute('data-layout', 'tiled')
  await expect(page.getByRole('radio', { name: 'Tiled' })).toHaveAttribute('aria-checked', 'true')
  await expect.poll(() => tileOrder(page)).toEqual([`${moved} pane`, `${stay} pane`])
  await expect(pane(page, ids['beta-job']!)).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Hidden (1) ▾' })).toBeEnabled()
  // the tiled geometry is the real one, not just the attribute: the leader's pane spans two columns
  const leader = (await pane(page, 'team-lead').boundingBox())!
  const tile = (await pane(page, ids[moved]!).boundingBox())!
  expect(leader.width).toBeGreaterThan(tile.width * 1.8)
  // a reloaded pane gets its scrollback back from main, with the readable launch lines
  await expectPaneToContain(page, /▸ launched background agent alpha-job \(id /)
  await snap(page, testInfo, '02-after-reload')

  // showing beta again puts it back after the arranged tiles; collapsing the leader's group hides them all
  await page.getByRole('button', { name: 'Hidden (1) ▾' }).click()
  await page.getByRole('menuitem', { name: 'Show beta-job' }).click()
  await expect.poll(() => tileOrder(page)).toEqual([`${moved} pane`, `${stay} pane`, 'beta-job pane'])
  await pane(page, 'team-lead').getByRole('button', { name: 'Hide 3 subagent panes of team-lead' }).click()
  await expect(page.locator('section.pane')).toHaveCount(1)

  await page.reload()
  await expect(grid).toHaveAttribute('data-layout', 'tiled')
  await expect(
    pane(page, 'team-lead').getByRole('button', { name: 'Show 3 subagent panes of team-lead' })
  ).toHaveAttribute('aria-expanded', 'false')
  await expect(page.locator('section.pane')).toHaveCount(1)
  await expect(page.getByRole('button', { name: 'Hidden (0) ▾' })).toBeDisabled()
  await pane(page, 'team-lead').getByRole('button', { name: 'Show 3 subagent panes of team-lead' }).click()
  await expect.poll(() => tileOrder(page)).toEqual([`${moved} pane`, `${stay} pane`, 'beta-job pane'])
  await snap(page, testInfo, '03-group-shown-again')
})

/** Names long enough that a narrow header must truncate them (the agent's name is the description's slug, cut at 40 characters). */
const LONG = 'investigate the flaky integration tests in the payments module'
const HELPERS = [
  LONG,
  'lint',
  'docs',
  'api survey',
  'perf probe',
  'schema review',
  'ui audit',
  'security scan',
  'deps',
  'changelog',
  'i18n',
  'build cache',
  'release notes'
]

/**
 * Sixteen panes: the leader, two worker teammates and thirteen background subagents — the
 * long-named one and a few others asking to run a command (so their state chip is the long
 * "needs permission"), the rest busy on a slow model answer (running, until it comes) or done.
 */
const SIXTEEN: ScenarioObject = {
  name: 'sixteen-panes',
  agents: {
    'team-lead': [
      {
        text: 'Building a big team.',
        tools: [
          { name: 'TeamCreate', input: { team_name: 'big', description: 'Sixteen panes' } },
          {
            name: 'Agent',
            input: { name: 'alice', backend: 'worker', description: 'helper', prompt: 'Wait for messages.' }
          },
          {
            name: 'Agent',
            input: {
              name: 'bartholomew-the-reviewer',
              backend: 'worker',
              description: 'helper',
              prompt: 'Wait for messages.'
            }
          }
        ]
      },
      {
        text: 'Launching helpers.',
        tools: HELPERS.map((description) => ({
          name: 'Agent',
          input: { description, prompt: 'Work.', run_in_background: true }
        }))
      },
      { text: 'Everyone is at work.' },
      ...Array.from({ length: 30 }, () => ({ text: 'Noted.' }))
    ],
    alice: [{ text: 'alice is ready.' }, ...Array.from({ length: 6 }, () => ({ text: 'ok' }))],
    'bartholomew-the-reviewer': [
      { text: 'bartholomew is ready.' },
      ...Array.from({ length: 6 }, () => ({ text: 'ok' }))
    ],
    'investigate-the-flaky-integration-tests': [
      { text: 'Looking.', tools: [{ name: 'Bash', input: { command: 'touch flaky.txt' } }] },
      { text: 'done' }
    ],
    lint: [{ text: 'Linting.', tools: [{ name: 'Bash', input: { command: 'touch lint.txt' } }] }, { text: 'done' }],
    docs: [{ text: 'Documenting.', tools: [{ name: 'Bash', input: { command: 'touch docs.txt' } }] }, { text: 'done' }],
    deps: [{ text: 'Checked: nothing to update.' }],
    i18n: [{ text: 'Checked: all strings translated.' }],
    '*': [{ delayMs: 45_000, text: 'Still thinking.' }, { text: 'done' }]
  }
}

/**
 * Header geometry of every pane, measured in the page in one layout pass. A part is `whole` when
 * it is as wide as a copy of it laid out unconstrained beside it (an ellipsis may hide less than
 * a pixel, which scrollWidth rounds away), and `inside` when it lies within its header's box.
 */
function headerFacts(page: Page) {
  return page.locator('section.pane').evaluateAll((panes) => {
    const parts = ['[data-testid=pane-state]', '[data-testid=pane-tokens]', '.pane-name', '.pane-window']
    const measured = panes.map((p) => {
      const head = p.querySelector<HTMLElement>('[data-testid=pane-head]')!
      const els = parts.map((sel) => head.querySelector<HTMLElement>(sel))
      const clones = els.map((el) => {
        if (!el) return undefined
        const clone = el.cloneNode(true) as HTMLElement
        clone.style.cssText = 'position:absolute;visibility:hidden;flex:none;width:auto;min-width:0;max-width:none'
        head.appendChild(clone)
        return clone
      })
      return { p, head, els, clones }
    })
    const facts = measured.map(({ p, head, els, clones }) => {
      const box = head.getBoundingClientRect()
      const [state, tokens, name, windowButtons] = els.map((el, i) => {
        if (!el) return undefined
        const r = el.getBoundingClientRect()
        return {
          whole: r.width >= clones[i]!.getBoundingClientRect().width - 0.02,
          inside: r.width > 0 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5
        }
      })
      return {
        name: p.getAttribute('aria-label'),
        height: box.height,
        lineHeight: parseFloat(getComputedStyle(head).fontSize) * 1.45,
        state,
        tokens,
        nameText: name,
        windowButtons
      }
    })
    for (const { clones } of measured) for (const c of clones) c?.remove()
    return facts
  })
}

async function expectOneLineHeaders(page: Page): Promise<void> {
  const facts = await headerFacts(page)
  expect(facts).toHaveLength(16)
  for (const f of facts) {
    // one line of text plus padding; a second line would add another ~17 px
    expect(f.height, `${f.name}'s header is one line`).toBeLessThan(f.lineHeight + 18)
    expect(f.state, `${f.name}'s state chip`).toMatchObject({ whole: true, inside: true })
    expect(f.tokens, `${f.name}'s tokens`).toMatchObject({ whole: true, inside: true })
    // nothing is cut off at the header's end (its overflow is hidden, so a squeeze would clip ×)
    expect(f.windowButtons, `${f.name}'s window buttons`).toMatchObject({ inside: true })
  }
  // the long name gave way, not the state beside it
  const long = facts.find((f) => f.name?.startsWith('investigate-the-flaky'))!
  expect(long.nameText?.whole).toBe(false)
}

test('at 16 panes in a 1280×800 window every header is one line: the name truncates, the state and tokens stay whole', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(240_000)
  const served = await serve(SIXTEEN)
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(served.url)
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill('Build the big team.')
  await input.press('Enter')
  await expect(page.locator('section.pane')).toHaveCount(16, { timeout: 60_000 })
  await expect(page.locator('section.pane[data-state="awaiting_permission"]')).toHaveCount(3, { timeout: 30_000 })
  await expectPaneToContain(page, 'Everyone is at work.')

  await page.getByRole('radio', { name: 'Tiled' }).click()
  await expect(page.getByTestId('pane-grid')).toHaveAttribute('data-layout', 'tiled')
  await expectOneLineHeaders(page)
  await snap(page, testInfo, '01-sixteen-tiled')

  await page.getByRole('radio', { name: 'Main + stack' }).click()
  await expect(page.getByTestId('pane-grid')).toHaveAttribute('data-layout', 'main-vertical')
  await expectOneLineHeaders(page)
  await snap(page, testInfo, '02-sixteen-main-vertical')

  // with both side panels closed the grid has the whole width
  await page.getByRole('button', { name: 'Hide the team dashboard' }).click()
  await page.getByRole('button', { name: 'Hide the side drawer' }).click()
  await expect(page.getByRole('button', { name: 'Show the side drawer' })).toBeVisible()
  await page.getByRole('radio', { name: 'Tiled' }).click()
  await expectOneLineHeaders(page)
  await snap(page, testInfo, '03-sixteen-tiled-full-width')
})

/**
 * Where the Main + stack layout's two columns and the top bar's last controls are, measured in the
 * page: the leader's pane, the stack of tiles, and each control's box against the window.
 */
function narrowFacts(page: Page) {
  return page.evaluate(() => {
    const box = (el: Element | null) => {
      if (!el) return undefined
      const r = el.getBoundingClientRect()
      return { left: r.left, right: r.right, width: r.width }
    }
    const bar = document.querySelector<HTMLElement>('header.topbar')!
    const button = (label: string) =>
      Array.from(bar.querySelectorAll('button')).find(
        (b) => (b.getAttribute('aria-label') ?? b.textContent?.trim()) === label
      ) ?? null
    return {
      viewport: document.documentElement.clientWidth,
      leader: box(document.querySelector('.pane-grid > section.pane[data-agent-id="team-lead"]')),
      stack: box(document.querySelector('.pane-grid > .pane-tiles')),
      // the bar lays its items out on one line, cut at the window's edge
      barOverflows: bar.scrollWidth > bar.clientWidth + 0.5,
      controls: {
        dashboardToggle: box(button('Hide the team dashboard')),
        usage: box(bar.querySelector('[data-testid=topbar-usage]')),
        sessions: box(bar.querySelector('[data-testid=sessions-menu]')),
        newSession: box(bar.querySelector('[data-testid=new-session]')),
        stopAll: box(button('Stop all')),
        settings: box(button('Settings')),
        drawerToggle: box(button('Hide the side drawer'))
      },
      usageWhole: (() => {
        const u = bar.querySelector<HTMLElement>('[data-testid=topbar-usage]')!
        return u.scrollWidth <= u.clientWidth + 0.5
      })()
    }
  })
}

/** {@link THREE_HELPERS} with a team first, so the top bar carries the team's chip too. */
const TEAM_AND_HELPERS: ScenarioObject = {
  ...THREE_HELPERS,
  name: 'pane-narrow',
  agents: {
    ...THREE_HELPERS.agents,
    'team-lead': [
      { tools: [{ name: 'TeamCreate', input: { team_name: 'release-train', description: 'the release' } }] },
      ...THREE_HELPERS.agents['team-lead']!
    ]
  }
}

test("Main + stack at 1280 and 900 px: both columns give way, the leader's never narrower than the stack; the top bar keeps usage, Sessions, New session, Stop all, ⚙ and the drawer toggle on screen", async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(120_000)
  const served = await serve(TEAM_AND_HELPERS, { permissionMode: 'bypassPermissions' })
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(served.url)
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill('Send the helpers.')
  await input.press('Enter')
  await expect(page.locator('.pane-tiles > section.pane')).toHaveCount(3, { timeout: 30_000 })
  await expectPaneToContain(page, 'All three are on their way.')
  await expect(page.getByTestId('topbar-team')).toContainText('release-train')
  await page.getByRole('radio', { name: 'Main + stack' }).click()
  await expect(page.getByTestId('pane-grid')).toHaveAttribute('data-layout', 'main-vertical')
  // both side panels open: the narrowest the grid gets
  await expect(page.getByRole('button', { name: 'Hide the team dashboard' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Hide the side drawer' })).toBeVisible()

  const widths: Record<number, { leader: number; stack: number }> = {}
  // the two sizes of the screenshots, and two between them (the top bar changes its layout below 1100 px)
  for (const [width, height] of [
    [1280, 800],
    [1180, 760],
    [1000, 720],
    [900, 700]
  ] as const) {
    await page.setViewportSize({ width, height })
    await expect.poll(async () => (await narrowFacts(page)).viewport).toBe(width)
    const facts = await narrowFacts(page)
    expect(facts.leader, `the leader's pane at ${width} px`).toBeDefined()
    expect(facts.stack, `the stack at ${width} px`).toBeDefined()
    widths[width] = { leader: facts.leader!.width, stack: facts.stack!.width }
    expect(
      facts.leader!.width,
      `the leader's pane is at least as wide as the stack at ${width} px`
    ).toBeGreaterThanOrEqual(facts.stack!.width - 0.5)
    expect(facts.barOverflows, `the top bar fits at ${width} px`).toBe(false)
    for (const [name, b] of Object.entries(facts.controls)) {
      expect(b, `${name} at ${width} px`).toBeDefined()
      expect(b!.width, `${name} has room at ${width} px`).toBeGreaterThan(0)
      expect(b!.left, `${name} starts on screen at ${width} px`).toBeGreaterThanOrEqual(0)
      expect(b!.right, `${name} ends on screen at ${width} px`).toBeLessThanOrEqual(width)
    }
    expect(facts.usageWhole, `the usage (tokens and cost) is whole at ${width} px`).toBe(true)
    await expect(page.getByTestId('topbar-usage')).toContainText('$')
    // the dashboard's Spawn button stays inside its panel ("Spawn" alone in a narrow one)
    const spawn = await page.getByRole('button', { name: 'Spawn teammate' }).boundingBox()
    const panel = await page.locator('.dashboard').boundingBox()
    expect(spawn!.x + spawn!.width, `the Spawn button ends inside the dashboard at ${width} px`).toBeLessThanOrEqual(
      panel!.x + panel!.width
    )
    if (width === 1280 || width === 900) await snap(page, testInfo, `main-stack-${width}`)
  }
  // at 900 px the stack gave way too, not only the leader's pane
  expect(widths[900]!.stack).toBeLessThan(widths[1280]!.stack)
  expect(widths[900]!.leader, "the leader's pane keeps a readable width at 900 px").toBeGreaterThan(150)
})
