import { copyFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { startScriptedServer } from '../src/main/runtime/scripted'
import { expect, expectPaneToContain, paneText, snap, test } from './fixtures'

/**
 * Issue 19 item 13: the first screen tells a newcomer what to do. With the scripted model, the
 * scenario's suggested prompt (`prompt:`) is a button over the leader's empty pane that sends it as
 * the person's prompt; the card goes once the leader has begun, and stays gone after a reload.
 * Without an API key, the card says the leader waits for one and points to the "No API key"
 * banner, which says how to add it (the card does not say it twice), and offers no prompt.
 */

const PROMPT = 'Say hello to the team'

test('with the scripted model, the suggested prompt is a button that sends it as the person’s prompt', async ({
  page,
  serve
}, testInfo) => {
  const served = await serve({
    name: 'first-screen',
    prompt: PROMPT,
    agents: { 'team-lead': [{ when: PROMPT, text: 'Hello, team: the scripted leader heard the suggested prompt.' }] }
  })
  await page.goto(served.url)
  const card = page.getByTestId('first-screen')
  await expect(card).toBeVisible()
  // it sits over the leader's empty pane, not somewhere else on the page
  await expect(page.locator('section.pane[data-agent-id="team-lead"]').getByTestId('first-screen')).toBeVisible()
  await expect(card).toContainText('scripted model')
  const button = card.getByTestId('suggested-prompt')
  await expect(button).toHaveText(`▶ ${PROMPT}`)
  await expect(card).toContainText('Sessions')
  const shot = await snap(page, testInfo, '01-first-screen')
  mkdirSync(join(__dirname, '..', 'docs', 'screenshots'), { recursive: true })
  copyFileSync(shot, join(__dirname, '..', 'docs', 'screenshots', 'first-screen.png'))

  await button.click()
  // shown as the person's prompt, then answered
  await expectPaneToContain(page, `> ${PROMPT}`)
  await expectPaneToContain(page, 'Hello, team: the scripted leader heard the suggested prompt.')
  await expect(card).toHaveCount(0)
  const requests = await served.modelRequests()
  expect(JSON.stringify(requests[0]!.body.messages)).toContain(PROMPT)

  // a reload draws the started session: no first screen again
  await page.reload()
  await expectPaneToContain(page, 'Hello, team')
  await expect(page.locator('section.pane[data-agent-id="team-lead"]')).toBeVisible()
  await expect(page.getByTestId('first-screen')).toHaveCount(0)
  expect(await paneText(page)).toContain(`> ${PROMPT}`)
})

test('without an API key, the first screen says the leader waits for one and points to the banner; it offers no prompt', async ({
  page,
  serve
}, testInfo) => {
  const server = await startScriptedServer({ scenario: { agents: { '*': [{ text: 'unused' }] } } })
  try {
    const served = await serve(undefined, { model: { baseUrl: server.url } })
    await page.goto(served.url)
    const banner = page.getByTestId('no-api-key')
    await expect(banner).toBeVisible()
    const card = page.getByTestId('first-screen')
    await expect(card).toBeVisible()
    await expect(card.getByTestId('first-screen-no-key')).toContainText('needs an API key')
    await expect(card.getByTestId('first-screen-no-key')).toContainText('“No API key” banner above')
    // how to add a key is said once, in the banner
    await expect(card).not.toContainText('ANTHROPIC_API_KEY')
    await expect(card.getByTestId('suggested-prompt')).toHaveCount(0)
    const shot = await snap(page, testInfo, '02-first-screen-no-key')
    mkdirSync(join(__dirname, '..', 'docs', 'screenshots'), { recursive: true })
    copyFileSync(shot, join(__dirname, '..', 'docs', 'screenshots', 'first-screen-no-key.png'))
    // the banner's way works from here: Settings opens
    await banner.getByRole('button', { name: 'Open Settings' }).click()
    await expect(page.getByTestId('settings-api-key')).toBeVisible()
  } finally {
    await server.close()
  }
})
