import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, expectPaneToContain, paneText, promptLeader, snap, test, type ScenarioObject } from './fixtures'
import { startServe, type ServedWorkspace } from './serve'

/**
 * What the person says is shown (issue 19, item 1): a prompt typed to the leader, a message typed
 * into a worker teammate's pane and one sent to a process teammate from its dashboard row each
 * appear in that agent's pane as `> text`, before the agent's answer, and again in the scrollback
 * a restart of serve restores. A killed process teammate's pane says it was killed (item 3).
 */

const TEAM: ScenarioObject = {
  name: 'person-said',
  agents: {
    'team-lead': [
      {
        when: 'Make the team',
        tools: [
          { name: 'TeamCreate', input: { team_name: 'talk', description: 'people talk to it' } },
          {
            name: 'Agent',
            input: { name: 'alice', backend: 'worker', description: 'listener', prompt: 'Wait for the person.' }
          },
          {
            name: 'Agent',
            input: { name: 'bob', backend: 'process', description: 'listener', prompt: 'Wait for the person.' }
          }
        ]
      },
      { text: 'The team is listening.' },
      ...Array.from({ length: 12 }, () => ({ text: 'Noted.' }))
    ],
    alice: [
      { text: 'alice waits.' },
      { when: 'hello alice', text: 'alice heard you' },
      ...Array.from({ length: 6 }, () => ({ text: 'Noted.' }))
    ],
    bob: [
      { text: 'bob waits.' },
      { when: 'hello bob', text: 'bob heard you' },
      ...Array.from({ length: 6 }, () => ({ text: 'Noted.' }))
    ]
  }
}

/** `> ` then the words, as the pane's text reads once colours are gone: the person's line comes before `after`. */
async function expectSaidBefore(page: Page, agentId: string, said: string, after: string): Promise<void> {
  await expectPaneToContain(page, after, agentId)
  const text = await paneText(page, agentId)
  const at = text.indexOf(`> ${said}`)
  expect(at, `${agentId}'s pane should show "> ${said}":\n${text}`).toBeGreaterThanOrEqual(0)
  expect(at, `"> ${said}" should come before "${after}" in ${agentId}'s pane`).toBeLessThan(text.indexOf(after))
}

test("the person's prompt and messages show in the agent's pane, in order, and after a restart", async ({
  page,
  repo
}, testInfo) => {
  test.setTimeout(180_000)
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-e2e-home-')))
  const running: ServedWorkspace[] = []
  try {
    const served = await startServe({ cwd: repo, scenario: TEAM, home, permissionMode: 'bypassPermissions' })
    running.push(served)
    await page.setViewportSize({ width: 1600, height: 1000 })
    await page.goto(served.url)
    await promptLeader(page, 'Make the team, please')
    await expectSaidBefore(page, 'team-lead', 'Make the team, please', 'The team is listening.')
    await expectPaneToContain(page, 'alice waits.', 'alice@talk')

    // typed into alice's (worker) pane
    const line = page
      .locator('section.pane[data-agent-id="alice@talk"]')
      .getByRole('textbox', { name: 'Message to alice' })
    await line.fill('hello alice')
    await line.press('Enter')
    await expectSaidBefore(page, 'alice@talk', 'hello alice', 'alice heard you')

    // sent to bob (a process: his pane is his own terminal) from his dashboard row
    await expect(page.locator('section.pane[data-agent-id="bob@talk"]')).toBeVisible({ timeout: 30_000 })
    await expectPaneToContain(page, 'bob waits.', 'bob@talk')
    const bob = page.locator('ul.member-list > li').filter({ hasText: 'bob' })
    await bob.getByRole('button', { name: 'Message' }).click()
    const box = bob.getByRole('textbox', { name: 'Message to bob' })
    await box.fill('hello bob')
    await box.press('Enter')
    await expectSaidBefore(page, 'bob@talk', 'hello bob', 'bob heard you')
    await snap(page, testInfo, 'person-said')

    // killed, bob's program cannot say so: his pane does, as a worker's does (item 3)
    await bob.getByRole('button', { name: 'Kill', exact: true }).click()
    await bob.getByRole('button', { name: 'Kill bob' }).click()
    await expect(bob.getByTestId('member-state')).toHaveText('killed')
    await expectPaneToContain(page, '■ bob killed — killed by a person from the workspace', 'bob@talk')

    // a restart restores every pane with the person's lines where they were
    expect(await served.stop()).toBe(0)
    const again = await startServe({ cwd: repo, scenario: TEAM, home, permissionMode: 'bypassPermissions' })
    running.push(again)
    await page.goto(again.url)
    await expectSaidBefore(page, 'team-lead', 'Make the team, please', 'The team is listening.')
    await expectSaidBefore(page, 'alice@talk', 'hello alice', 'alice heard you')
    await expectSaidBefore(page, 'bob@talk', 'hello bob', 'bob heard you')
    await expectPaneToContain(page, '■ bob killed', 'bob@talk')
  } finally {
    for (const s of running) await s.stop()
    rmSync(home, { recursive: true, force: true })
  }
})
