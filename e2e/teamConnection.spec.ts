import { copyFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { startNatsServer, type NatsServer } from '../src/main/runtime/teamStore/natsServer.testkit'
import { expect, snap, test, type ScenarioObject } from './fixtures'
import { startServe, type ServedWorkspace } from './serve'

/**
 * A served workspace whose team lives on a NATS JetStream server (docs/nats.md#connection-state,
 * docs/ui.md#team-dashboard), in Chromium: the dashboard names the server and the connection's
 * state; a kill -9 of nats-server shows "connection lost" on every running member, in its row and
 * its pane header; the server restarted on its store brings every member's own state back.
 */

const noted = Array.from({ length: 20 }, () => ({ text: 'Noted.' }))

/** The leader makes team "crew" and spawns alice (a worker), who reports in and waits. */
const CREW: ScenarioObject = {
  name: 'team-connection',
  agents: {
    'team-lead': [
      {
        when: 'Start the crew',
        text: 'Setting up the crew.',
        tools: [{ name: 'TeamCreate', input: { team_name: 'crew' } }]
      },
      {
        text: 'Spawning alice.',
        tools: [
          {
            name: 'Agent',
            input: { name: 'alice', backend: 'worker', description: 'helper', prompt: 'Report in, then wait.' }
          }
        ]
      },
      { text: 'The crew is at work.' },
      ...noted
    ],
    alice: [
      {
        when: 'Report in',
        tools: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'Here.', summary: 'alice reports in' } }]
      },
      ...Array.from({ length: 10 }, () => ({ text: '' }))
    ]
  }
}

let nats: NatsServer | undefined
let served: ServedWorkspace | undefined
// eslint-disable-next-line no-empty-pattern -- Playwright reads a hook's fixtures from this pattern; this one uses none
test.afterEach(async ({}, testInfo) => {
  const stderr = served?.stderr() ?? ''
  const code = await served?.stop()
  if (stderr) await testInfo.attach('serve-stderr', { body: stderr, contentType: 'text/plain' })
  await nats?.stop()
  served = nats = undefined
  expect(code, `swarmdesk serve should stop cleanly on SIGTERM; stderr:\n${stderr}`).toBe(0)
})

test('the dashboard shows the team on a NATS server, every member "connection lost" while the server is down, and their states again once it is back', async ({
  page,
  repo
}, testInfo) => {
  test.setTimeout(120_000)
  nats = await startNatsServer()
  served = await startServe({
    cwd: repo,
    scenario: CREW,
    permissionMode: 'bypassPermissions',
    extraArgs: ['--team-transport', nats.url]
  })
  await page.goto(served.url)
  const transport = page.getByTestId('team-transport')
  await expect(transport).toHaveAttribute('data-kind', 'nats')
  await expect(transport).toContainText(nats.url)
  await expect(transport).toHaveAttribute('data-state', 'connected')

  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill('Start the crew.')
  await input.press('Enter')
  const row = (id: string) => page.locator(`li.member-row[data-agent-id="${id}"]`)
  const header = (id: string) => page.locator(`section.pane[data-agent-id="${id}"]`).getByTestId('pane-state')
  await expect(row('alice@crew').getByTestId('member-last')).toContainText('alice reports in')
  await expect(row('alice@crew').getByTestId('member-state')).toHaveAttribute('data-state', 'idle')
  await expect(page.locator('section.pane[data-agent-id="team-lead"]')).toContainText('The crew is at work.')
  await expect(row('team-lead').getByTestId('member-state')).toHaveAttribute('data-state', 'idle')
  await snap(page, testInfo, '01-team-on-nats-connected')

  // nats-server dies: the transport line turns red, and every member shows the lost connection
  await nats.kill9()
  await expect(transport).toHaveClass(/\blost\b/)
  await expect(transport.getByTestId('team-transport-state')).toHaveText(/^connection lost/)
  for (const id of ['team-lead', 'alice@crew']) {
    await expect(row(id).getByTestId('member-state')).toHaveAttribute('data-state', 'connection_lost')
    await expect(row(id).getByTestId('member-state')).toHaveText('connection lost')
    await expect(header(id)).toHaveText('connection lost')
  }
  await expect(page.locator('section.pane[data-agent-id="team-lead"]')).toContainText(
    "Lost the connection to the team's server"
  )
  await snap(page, testInfo, '02-team-on-nats-lost')
  const shots = join(__dirname, '..', 'docs', 'screenshots')
  mkdirSync(shots, { recursive: true })
  const panel = (await page.locator('aside.dashboard').boundingBox())!
  const last = (await page.locator('ul.member-list > li').last().boundingBox())!
  const clip = { x: panel.x, y: panel.y, width: panel.width, height: last.y + last.height + 8 - panel.y }
  await page.screenshot({ path: testInfo.outputPath('dashboard-connection-lost.png'), clip })
  copyFileSync(testInfo.outputPath('dashboard-connection-lost.png'), join(shots, 'dashboard-connection-lost.png'))
  // a reload while it is down shows the same (the snapshot carries the state)
  await page.reload()
  await expect(row('alice@crew').getByTestId('member-state')).toHaveAttribute('data-state', 'connection_lost')

  // the server back on its store: connected, and each member's own state again
  await nats.restart()
  await expect(transport).toHaveAttribute('data-state', 'connected')
  await expect(transport).not.toHaveClass(/\blost\b/)
  for (const id of ['team-lead', 'alice@crew']) {
    await expect(row(id).getByTestId('member-state')).toHaveAttribute('data-state', 'idle')
    await expect(header(id)).toHaveText('idle')
  }
  await expect(page.locator('section.pane[data-agent-id="team-lead"]')).toContainText("Connected to the team's server")
  await snap(page, testInfo, '03-team-on-nats-back')
  await page.screenshot({ path: testInfo.outputPath('dashboard-connection-back.png'), clip })
})
