import { execFileSync } from 'node:child_process'
import type { Page } from '@playwright/test'
import { expect, expectPaneToContain, paneText, snap, test } from './fixtures'

/** A duration no other process on the machine uses, so `ps` finds exactly the long job's command. */
const LONG_SLEEP = 'sleep 311.25'

/**
 * The leader launches two background subagents: "quick job" answers after a short delay, "long
 * job" runs a long shell command until it is stopped from its pane. Permissions are bypassed so
 * no bubble interrupts (background permissions have their own tests).
 */
const SCENARIO = {
  name: 'e2e-subagents',
  agents: {
    'team-lead': [
      {
        text: 'Sending two helpers off.',
        tools: [
          { name: 'Agent', input: { description: 'quick job', prompt: 'Answer at once.', run_in_background: true } },
          { name: 'Agent', input: { description: 'long job', prompt: 'Wait a long time.', run_in_background: true } }
        ]
      },
      { text: 'Both helpers are on their way.' },
      { when: '<task-notification>', text: 'A helper reported back.' },
      { when: '<task-notification>', text: 'Another helper reported back.' },
      { when: '<task-notification>', text: 'Yet another report.' }
    ],
    'quick-job': [{ delayMs: 1500, text: 'Quick result: forty-two.' }],
    'long-job': [
      {
        text: 'Starting the long wait.',
        tools: [{ name: 'Bash', input: { command: LONG_SLEEP, description: 'Wait a long time' } }]
      },
      { text: 'The long wait is over.' }
    ]
  }
}

/** Command lines of live processes running the long job's command. */
function longSleepers(): string[] {
  return execFileSync('ps', ['-eo', 'args'])
    .toString()
    .split('\n')
    .filter((line) => line.includes(LONG_SLEEP))
}

/** The pane of the agent with this name, and its agent id from the DOM. */
async function paneOf(page: Page, name: string) {
  const pane = page.locator(`section.pane[aria-label="${name} pane"]`)
  await expect(pane).toBeVisible()
  const agentId = await pane.getAttribute('data-agent-id')
  expect(agentId).toBeTruthy()
  return { pane, agentId: agentId! }
}

test('two background subagents get their own panes under the leader; one is stopped from its pane, its process gone and the leader notified', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(90_000)
  const served = await serve(SCENARIO, { permissionMode: 'bypassPermissions' })
  await page.goto(served.url)
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await expect(input).toBeEnabled()
  await input.fill('Run the two helpers.')
  await input.press('Enter')

  // three panes: the leader's, and one per subagent, nested under it
  await expect(page.locator('section.pane')).toHaveCount(3)
  const quick = await paneOf(page, 'quick-job')
  const long = await paneOf(page, 'long-job')
  expect(quick.agentId).not.toBe(long.agentId)
  for (const p of [quick, long]) {
    await expect(p.pane).toHaveAttribute('data-parent-id', 'team-lead')
    await expect(p.pane.locator('.pane-type')).toHaveText('general-purpose')
  }
  await expectPaneToContain(page, 'Sending two helpers off.')
  await expectPaneToContain(page, LONG_SLEEP, long.agentId)
  await expectPaneToContain(page, 'Starting the long wait.', long.agentId)
  await expect(long.pane.getByTestId('pane-state')).toHaveText('running')
  await expect(long.pane.getByRole('button', { name: 'Stop' })).toBeVisible()
  await snap(page, testInfo, '01-three-panes')

  // the quick one finishes: its pane says so, the leader's pane shows the notification
  await expectPaneToContain(page, 'Quick result: forty-two.', quick.agentId)
  await expect(quick.pane.getByTestId('pane-state')).toHaveText('completed')
  await expect(quick.pane.getByRole('button', { name: 'Stop' })).toHaveCount(0)
  await expectPaneToContain(page, '◆ notification: agent quick-job completed')
  await expect(long.pane.locator('.pane-stat').first()).toHaveText(/^\d+s$/)
  await snap(page, testInfo, '02-quick-done-notified')

  // Background on an agent already in the background: the runtime's refusal shows on its pane
  await long.pane.getByRole('button', { name: 'Background' }).click()
  await expect(long.pane.getByRole('status')).toContainText('already runs in the background')
  await snap(page, testInfo, '03-background-refused')
  await long.pane.getByRole('button', { name: 'Dismiss' }).click()
  await expect(long.pane.getByRole('status')).toHaveCount(0)

  // collapsing the leader's subagents hides (and unmounts) their panes; showing them restores the scrollback
  await page.getByRole('button', { name: 'Hide 2 subagent panes of team-lead' }).click()
  await expect(page.locator('section.pane')).toHaveCount(1)
  await expect.poll(() => page.evaluate(() => (window as any).__swarmdeskTest.paneListeners())).toBe(1)
  await snap(page, testInfo, '04-collapsed')
  await page.getByRole('button', { name: 'Show 2 subagent panes of team-lead' }).click()
  await expect(page.locator('section.pane')).toHaveCount(3)
  await expectPaneToContain(page, 'Quick result: forty-two.', quick.agentId)
  await expectPaneToContain(page, LONG_SLEEP, long.agentId)

  // Stop on the long one: killed, its command gone, the leader told
  expect(longSleepers().length).toBeGreaterThan(0)
  await long.pane.getByRole('button', { name: 'Stop' }).click()
  await expect(long.pane.getByTestId('pane-state')).toHaveText(/killed|exited/)
  await expect(long.pane.getByRole('button', { name: 'Stop' })).toHaveCount(0)
  await expectPaneToContain(page, '◆ notification: agent long-job killed')
  await expect.poll(longSleepers, { message: `no process should still run ${LONG_SLEEP}` }).toEqual([])
  await expect(input).toBeEnabled()
  expect(await paneText(page)).toMatch(
    /notification: agent quick-job completed[\s\S]*notification: agent long-job killed/
  )
  await snap(page, testInfo, '05-long-stopped')

  // a reload brings every pane back from the snapshot and main's scrollback
  await page.reload()
  await expect(page.locator('section.pane')).toHaveCount(3)
  await expectPaneToContain(page, '◆ notification: agent long-job killed')
  await expectPaneToContain(page, 'Quick result: forty-two.', quick.agentId)
  await expectPaneToContain(page, 'stopped: killed', long.agentId)
  // the snapshot says how each agent ended, so the reloaded header matches the live one
  await expect(long.pane.getByTestId('pane-state')).toHaveText('killed')
  await snap(page, testInfo, '06-after-reload')
})

/** The leader waits on a sync subagent running a long command until a person backgrounds it from its pane. */
const SYNC_SCENARIO = {
  name: 'e2e-subagent-background',
  agents: {
    'team-lead': [
      {
        text: 'Asking a helper and waiting for it.',
        tools: [{ name: 'Agent', input: { description: 'slow sync', prompt: 'Wait a long time.' } }]
      },
      { text: 'Carrying on while the helper runs in the background.' },
      { when: '<task-notification>', text: 'The helper reported back.' }
    ],
    'slow-sync': [
      { tools: [{ name: 'Bash', input: { command: 'sleep 312.5', description: 'Wait a long time' } }] },
      { text: 'The wait is over.' }
    ]
  }
}

test('Background on a sync subagent’s pane frees its parent, which carries on; the agent keeps running until stopped', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(90_000)
  const served = await serve(SYNC_SCENARIO, { permissionMode: 'bypassPermissions' })
  await page.goto(served.url)
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await expect(input).toBeEnabled()
  await input.fill('Ask the helper.')
  await input.press('Enter')

  const slow = await paneOf(page, 'slow-sync')
  await expectPaneToContain(page, 'sleep 312.5', slow.agentId)
  await expect(page.locator('section.pane[data-agent-id="team-lead"]').getByTestId('pane-state')).toHaveText('running')
  await expect(input).toBeDisabled()
  await snap(page, testInfo, '11-leader-waits-on-sync-agent')

  await slow.pane.getByRole('button', { name: 'Background' }).click()
  // the Agent result, shown as a launch line rather than its async_launched JSON
  await expectPaneToContain(page, /launched background agent slow-sync \(id a[0-9a-f]+\)/)
  await expectPaneToContain(page, 'Carrying on while the helper runs in the background.')
  await expect(input).toBeEnabled()
  await expect(slow.pane.getByTestId('pane-state')).toHaveText('running')
  await expect(slow.pane.getByRole('status')).toHaveCount(0)
  await snap(page, testInfo, '12-backgrounded')

  await slow.pane.getByRole('button', { name: 'Stop' }).click()
  await expectPaneToContain(page, '◆ notification: agent slow-sync killed')
  await expect
    .poll(() =>
      execFileSync('ps', ['-eo', 'args'])
        .toString()
        .split('\n')
        .filter((l) => l.includes('sleep 312.5'))
    )
    .toEqual([])
  await snap(page, testInfo, '13-stopped')
})
