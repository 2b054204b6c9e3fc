import { copyFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import type { Page } from '@playwright/test'
import { createMailbox } from '../src/main/runtime/mailbox'
import { allowEveryRequestUntil, expect, paneText, snap, test, type ScenarioObject } from './fixtures'

/** The scripted docs team of the demo (resources/demo/team.yaml), as e2e/team.spec.ts runs it. */
const TEAM_SCENARIO = parse(
  readFileSync(join(__dirname, '..', 'resources', 'demo', 'team.yaml'), 'utf8')
) as ScenarioObject

const inspector = (page: Page) => page.locator('section.mailbox-inspector')
const cards = (page: Page, selector = '') => inspector(page).locator(`article.mb-card${selector}`)

/** Opens the drawer's Mailbox tab. */
async function openMailbox(page: Page): Promise<void> {
  await page.getByRole('tab', { name: /Mailbox/ }).click()
  await expect(inspector(page)).toBeVisible()
}

/** Sets the inspector's filters (agent / kind by their visible labels, unread only). */
async function filter(page: Page, f: { agent?: string; kind?: string; unread?: boolean }): Promise<void> {
  if (f.agent !== undefined)
    await inspector(page)
      .getByLabel('Filter by agent')
      .selectOption(f.agent === '' ? { index: 0 } : f.agent)
  if (f.kind !== undefined)
    await inspector(page)
      .getByLabel('Filter by kind')
      .selectOption(f.kind === '' ? { index: 0 } : { label: f.kind })
  if (f.unread !== undefined) await inspector(page).getByLabel('Unread only').setChecked(f.unread)
}

test('the inspector shows the docs team’s messages as readable cards, live, filtered by agent and kind, raw on demand', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(150_000)
  const served = await serve(TEAM_SCENARIO)
  await page.goto(served.url)
  await openMailbox(page)
  await expect(inspector(page)).toContainText('No team yet')
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill('Document this project with a team.')
  await input.press('Enter')

  // live: carol's first write asks the leader through the mailbox, and the card says what and where
  // (the list is virtualised: each check narrows the filters so the cards it looks for are rendered)
  await filter(page, { kind: 'Permission request' })
  const ask = cards(page, '[data-kind="permission_request"][data-from="carol"]').first()
  await expect(ask).toBeVisible({ timeout: 30_000 })
  await expect(ask.locator('.mb-tool')).toHaveText('Write')
  await expect(ask.locator('.mb-path')).toHaveText('docs/README.md')
  await expect(inspector(page)).toHaveAttribute('data-team', 'docs')
  await snap(page, testInfo, '01-mailbox-carol-asks')
  await filter(page, { kind: '' })

  // the person lets the leader start alice and bob in acceptEdits, then allows each of carol's
  // writes (as in team.spec.ts) until the leader reports the team gone
  for (const name of ['alice', 'bob']) {
    const spawn = page.locator('section.perm-card[data-agent-id="team-lead"]').filter({ hasText: name }).first()
    await expect(spawn).toContainText('acceptEdits', { timeout: 30_000 })
    await spawn.getByRole('button', { name: /Allow once/ }).click()
  }
  const done = 'The team is gone'
  await allowEveryRequestUntil(page, 'carol@docs', done)
  await expect.poll(() => paneText(page), { timeout: 10_000 }).toContain(done)

  // the deleted team's messages stay, marked
  await expect(inspector(page)).toHaveAttribute('data-deleted', 'true')
  await expect(inspector(page).locator('.mb-deleted')).toHaveText('deleted team')

  // the initial prompt to carol: a plain message from the leader
  await filter(page, { agent: 'carol', kind: 'Message' })
  await expect(cards(page, '[data-from="team-lead"][data-to="carol"]').first()).toContainText(
    'Start with the docs index'
  )
  for (const card of await cards(page).all())
    expect([await card.getAttribute('data-from'), await card.getAttribute('data-to')]).toContain('carol')
  // the initial prompts of alice and bob too
  for (const name of ['alice', 'bob']) {
    await filter(page, { agent: name, kind: 'Message' })
    await expect(cards(page, `[data-from="team-lead"][data-to="${name}"]`).first()).toContainText(
      'Work through the team'
    )
  }
  // the task assignment to carol, as a task card
  await filter(page, { agent: 'carol', kind: 'Task assignment' })
  const assignment = cards(page, '[data-to="carol"]')
  await expect(assignment).toHaveCount(1)
  await expect(assignment).toContainText('#4 Write the changelog')
  await expect(assignment).toContainText('Write docs/CHANGELOG.md with an entry for this release.')
  // her permission requests (README and CHANGELOG), each answered
  await filter(page, { kind: 'Permission request' })
  const asks = cards(page)
  await expect(asks).toHaveCount(2)
  await expect(asks.locator('.mb-path')).toHaveText(['docs/README.md', 'docs/CHANGELOG.md'])
  await filter(page, { kind: 'Permission answer' })
  await expect(cards(page)).toHaveCount(2)
  for (const card of await cards(page).all()) await expect(card.locator('.mb-verdict')).toHaveText('Allowed')

  // the broadcast: one copy per inbox of a member at that moment, each marked with the count (bob
  // may not be there yet: the person let the leader start alice first)
  await filter(page, { agent: '', kind: 'Message' })
  const broadcast = cards(page, ':has(.mb-broadcast)')
  await expect.poll(() => broadcast.count()).toBeGreaterThanOrEqual(2)
  const copies = await broadcast.count()
  expect(copies).toBeLessThanOrEqual(3)
  await expect(broadcast.first()).toContainText('wordfreq page done')
  await expect(broadcast.first().locator('.mb-broadcast')).toHaveText(`broadcast · ${copies}`)

  // idle notifications with their summaries
  await filter(page, { kind: 'Idle' })
  await expect.poll(() => cards(page).count()).toBeGreaterThan(2)
  await expect(cards(page).first().locator('.mb-field', { hasText: 'reason' })).toContainText('Available')
  await expect(
    cards(page)
      .filter({ hasText: /summary/ })
      .first()
  ).toBeVisible()

  // shutdown requests to each teammate, with the reason, and their approvals
  await filter(page, { kind: 'Shutdown request' })
  await expect(cards(page)).toHaveCount(3)
  await expect(cards(page).first()).toContainText('The docs are done, thank you.')
  expect((await cards(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-to')))).sort()).toEqual([
    'alice',
    'bob',
    'carol'
  ])
  // each teammate read its shutdown request before leaving
  for (const card of await cards(page).all()) await expect(card).toHaveAttribute('data-read', 'true')
  // their approvals, as verdicts. How many the inspector saw depends on timing: the leader deletes
  // the team as soon as every teammate is inactive, which may be before the last approvals are
  // delivered (they then land in a deleted team) or read by the inspector (a known gap: the
  // team's folder is removed without notice). Every approval it did see reads "Approved".
  await filter(page, { kind: '' })
  const kinds = await inspector(page).getByLabel('Filter by kind').locator('option').allTextContents()
  if (kinds.includes('Shutdown approved')) {
    await filter(page, { kind: 'Shutdown approved' })
    for (const card of await cards(page).all()) await expect(card.locator('.mb-verdict')).toHaveText('Approved')
  }

  // Raw shows the JSON, pretty-printed, on this card only
  await filter(page, { kind: 'Shutdown request' })
  const first = cards(page).first()
  await expect(first.locator('.mb-raw')).toHaveCount(0)
  await first.getByRole('button', { name: 'Raw' }).click()
  await expect(first.locator('.mb-raw')).toContainText('"type": "shutdown_request"')
  await expect(first.locator('.mb-raw')).toContainText('"reason": "The docs are done, thank you."')
  await expect(inspector(page).locator('.mb-raw')).toHaveCount(1)
  // the list re-measures the grown card on its next frames
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
  await snap(page, testInfo, '02-mailbox-raw')
  await first.getByRole('button', { name: 'Raw' }).click()
  await expect(first.locator('.mb-raw')).toHaveCount(0)

  // never raw JSON unless asked: no card body starts with a brace
  await filter(page, { kind: '' })
  for (const text of await inspector(page).locator('.mb-summary, .mb-text').allTextContents())
    expect(text.trim().startsWith('{')).toBe(false)

  // clicking an agent focuses (and flashes) its pane
  await filter(page, { agent: 'alice' })
  await cards(page, '[data-from="alice"]').first().locator('button.mb-agent[data-agent-id="alice@docs"]').click()
  await expect(page.locator('section.pane[data-agent-id="alice@docs"]')).toHaveClass(/pane-highlight/)
  await filter(page, { agent: '' })
  await expect(inspector(page).getByTestId('mailbox-counts')).toContainText('messages')
  await snap(page, testInfo, '03-mailbox-all')
  copyFileSync(testInfo.outputPath('03-mailbox-all.png'), join(__dirname, '..', 'docs', 'screenshots', 'mailbox.png'))
})

test('10,000 messages: only a bounded number of cards are in the DOM, and read state follows the inbox live', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(120_000)
  const served = await serve({
    name: 'mailbox-volume',
    agents: {
      'team-lead': [
        { text: 'Making a team.', tools: [{ name: 'TeamCreate', input: { team_name: 'bulk' } }] },
        { text: 'The team exists.' }
      ]
    }
  })
  await page.goto(served.url)
  await openMailbox(page)
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill('Make a team.')
  await input.press('Enter')
  await expect(inspector(page)).toHaveAttribute('data-team', 'bulk')

  // 10,000 messages land in bob's inbox through the real mailbox, as teammates would send them
  const mailbox = createMailbox({ home: served.home })
  const ids: string[] = []
  for (let i = 0; i < 10_000; i++)
    ids.push(
      (
        await mailbox.send('bulk', 'bob', {
          from: i % 2 ? 'alice' : 'team-lead',
          text: `message number ${i}`,
          summary: `note ${i}`
        })
      ).id
    )
  await expect(inspector(page).getByTestId('mailbox-counts')).toHaveText('10000 messages · 10000 unread', {
    timeout: 60_000
  })
  const rendered = await cards(page).count()
  expect(rendered).toBeGreaterThan(0)
  expect(rendered).toBeLessThan(60)
  // it follows the end: the newest message is on screen
  await expect(cards(page).last()).toContainText('note 9999')

  // the person scrolls to the top: still bounded, the first message is there, and new ones no longer pull the list down
  // (a wheel event says "the person scrolls"; the jump itself is set directly, as a smooth scroll
  // across 10,000 estimated rows would take its time)
  await inspector(page)
    .getByTestId('mailbox-list')
    .evaluate((el) => {
      el.dispatchEvent(new WheelEvent('wheel', { deltaY: -100 }))
      el.scrollTop = 0
    })
  await expect(cards(page).first()).toContainText('note 0')
  await mailbox.send('bulk', 'bob', { from: 'alice', text: 'one more', summary: 'note 10000' })
  await expect(inspector(page).getByTestId('mailbox-counts')).toHaveText('10001 messages · 10001 unread')
  await expect(cards(page).first()).toContainText('note 0')
  expect(await cards(page).count()).toBeLessThan(60)

  // bob reads his first message: its card turns read, live
  const firstCard = cards(page, `[data-key="bob/${ids[0]}"]`)
  await expect(firstCard).toHaveAttribute('data-read', 'false')
  await mailbox.markRead('bulk', 'bob', [ids[0]!])
  await expect(firstCard).toHaveAttribute('data-read', 'true')
  await expect(inspector(page).getByTestId('mailbox-counts')).toHaveText('10001 messages · 10000 unread')
  await filter(page, { unread: true })
  await expect(firstCard).toHaveCount(0)
  await filter(page, { agent: 'alice', unread: false })
  await expect(cards(page).first()).toContainText('note 1')
  await snap(page, testInfo, '04-mailbox-10000')
})
