import type { Locator, Page } from '@playwright/test'
import { expect, expectPaneToContain, promptLeader, snap, test, type ScenarioObject } from './fixtures'

/**
 * The panes are terminals (issue 19, item 2): typing into a teammate pane's terminal area writes
 * into its message line and Enter sends; Esc (or Ctrl+C) in a pane interrupts that agent's turn
 * — the leader, a worker teammate, a process teammate — which stops its running command, says it
 * was interrupted, goes idle and takes the next message.
 */

const LONG = {
  name: 'Bash',
  input: { command: "echo long-command-started; sleep 120; printf 'never-%s\\n' printed", timeout: 600000 }
}
const filler = Array.from({ length: 16 }, () => ({ text: 'Noted.' }))

const SCENARIO: ScenarioObject = {
  name: 'pane-keys',
  agents: {
    'team-lead': [
      {
        when: 'Make the team',
        tools: [
          { name: 'TeamCreate', input: { team_name: 'keys', description: 'keyboard' } },
          {
            name: 'Agent',
            input: { name: 'alice', backend: 'worker', description: 'sleeper', prompt: 'Wait for the person.' }
          },
          {
            name: 'Agent',
            input: { name: 'bob', backend: 'process', description: 'sleeper', prompt: 'Wait for the person.' }
          }
        ]
      },
      { when: 'Spawned teammate', text: 'The team is listening.' },
      { when: 'leader, sleep', tools: [LONG] },
      { when: 'leader, again', text: 'the leader is back' },
      ...filler
    ],
    alice: [
      { text: 'alice waits.' },
      { when: 'alice, sleep', tools: [LONG] },
      { when: 'alice, again', text: 'alice is back' },
      ...filler
    ],
    bob: [
      { text: 'bob waits.' },
      { when: 'bob, sleep', tools: [LONG] },
      { when: 'bob, again', text: 'bob is back' },
      ...filler
    ]
  }
}

const pane = (page: Page, agentId: string): Locator => page.locator(`section.pane[data-agent-id="${agentId}"]`)

/** Types `text` into the terminal area of a teammate's pane, then Enter. */
async function typeIntoPane(page: Page, agentId: string, text: string): Promise<void> {
  await pane(page, agentId).getByTestId('pane-term').click()
  await page.keyboard.type(text)
  await page.keyboard.press('Enter')
}

/**
 * With `name`'s long command running: `key` in its pane stops the turn (the pane says so, the
 * teammate is idle), and the next message typed into the pane gets its answer.
 */
async function interruptAndGoOn(page: Page, name: string, key: string): Promise<void> {
  const id = `${name}@keys`
  await expectPaneToContain(page, 'long-command-started', id)
  await expect(pane(page, id)).toHaveAttribute('data-state', 'running')
  await pane(page, id).getByTestId('pane-term').click()
  await page.keyboard.press(key)
  await expectPaneToContain(page, `Interrupted: ${name} stopped its turn`, id)
  await expect(pane(page, id)).toHaveAttribute('data-state', 'idle')
  await typeIntoPane(page, id, `${name}, again`)
  await expectPaneToContain(page, `${name} is back`, id)
}

test('a teammate pane takes the keyboard, and Esc or Ctrl+C interrupts the leader, a worker and a process teammate', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(240_000)
  const served = await serve(SCENARIO, { permissionMode: 'bypassPermissions' })
  await page.setViewportSize({ width: 1600, height: 1000 })
  await page.goto(served.url)
  await promptLeader(page, 'Make the team')
  await expectPaneToContain(page, 'alice waits.', 'alice@keys')
  await expectPaneToContain(page, 'bob waits.', 'bob@keys')

  // keys typed in alice's terminal area land in her message line, and a permission shortcut ("a") is not taken
  await pane(page, 'alice@keys').getByTestId('pane-term').click()
  await page.keyboard.type('alice, sleep')
  await expect(pane(page, 'alice@keys').getByRole('textbox', { name: 'Message to alice' })).toHaveValue('alice, sleep')
  await page.keyboard.press('Enter')
  await interruptAndGoOn(page, 'alice', 'Escape')

  // bob runs in his own process: Ctrl+C in his pane stops his turn, not him
  await typeIntoPane(page, 'bob@keys', 'bob, sleep')
  await interruptAndGoOn(page, 'bob', 'Control+c')

  // the leader: Esc in its pane
  await promptLeader(page, 'leader, sleep')
  await expectPaneToContain(page, 'long-command-started')
  await pane(page, 'team-lead').getByTestId('pane-term').click()
  await page.keyboard.press('Escape')
  await expectPaneToContain(page, 'Interrupted: the leader stopped its turn')
  await promptLeader(page, 'leader, again')
  await expectPaneToContain(page, 'the leader is back')
  await snap(page, testInfo, 'pane-keys')

  // no interrupted command outlived its turn
  for (const id of ['team-lead', 'alice@keys', 'bob@keys']) {
    await expect
      .poll(async () =>
        (await page.evaluate((a) => (window as any).__swarmdeskTest?.paneText(a) ?? '', id)).includes('never-printed')
      )
      .toBe(false)
  }
})
