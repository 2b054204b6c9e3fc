import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, snap, test, type ScenarioObject } from './fixtures'

/**
 * Settings lists the workspace's MCP servers (docs/tools.md#mcp-servers, docs/ui.md#the-workspace-ui)
 * in Chromium against the web host: a local-settings server the session started, shown as the
 * session's own connection; a user-settings server added after the session opened, connected with
 * its tools on a check of its own; a project server awaiting approval until "Approve" writes it to
 * the local settings (then connected), and a server that fails to start with its stderr,
 * connected after "Reconnect" once what it lacked exists.
 */

const QUIET: ScenarioObject = { name: 'mcp-settings', agents: { 'team-lead': [{ text: 'Ready.' }] } }
const MEMORY = join(__dirname, '..', 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js')

test('Settings: MCP servers with source, transport, state and tools; approve one, reconnect one', async ({
  page,
  repo,
  serve
}, testInfo) => {
  const flag = join(repo, 'ready.flag')
  // starts only once `ready.flag` exists; says so on stderr until then
  const gated = `const fs = require('fs'); if (!fs.existsSync(${JSON.stringify(flag)})) { console.error('cannot start: ready.flag is missing'); process.exit(1) } import(${JSON.stringify(`file://${MEMORY}`)})`
  writeFileSync(
    join(repo, '.mcp.json'),
    JSON.stringify({
      mcpServers: {
        memory: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(repo, 'project.jsonl') } },
        gated: { command: process.execPath, args: ['-e', gated], env: { MEMORY_FILE_PATH: join(repo, 'gated.jsonl') } }
      }
    })
  )
  mkdirSync(join(repo, '.swarmdesk'), { recursive: true })
  writeFileSync(
    join(repo, '.swarmdesk', 'settings.local.json'),
    JSON.stringify({
      mcpServers: {
        live: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(repo, 'live.jsonl') } }
      }
    })
  )
  const served = await serve(QUIET)
  writeFileSync(
    join(served.home, 'settings.json'),
    JSON.stringify({
      enabledMcpjsonServers: ['gated'],
      mcpServers: {
        notes: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(served.home, 'n.jsonl') } }
      }
    })
  )
  await page.goto(served.url)
  await page.getByTestId('open-settings').click()
  const dialog = page.getByRole('dialog', { name: 'Settings' })
  const section = dialog.getByTestId('settings-mcp')
  const row = (name: string) => section.locator(`li[data-testid="mcp-server"][data-name="${name}"]`)
  await expect(section.getByTestId('mcp-server')).toHaveCount(4, { timeout: 30_000 })

  // started with the session: its own connection, no check of its own
  await expect(row('live')).toHaveAttribute('data-state', 'connected')
  await expect(row('live')).toHaveAttribute('data-of', 'session')
  await expect(row('live').getByTestId('mcp-checked')).toHaveCount(0)
  await expect(row('live').getByTestId('mcp-tools')).toContainText('read_graph')
  // added after the session opened: checked on a connection of its own, and says so
  await expect(row('notes')).toHaveAttribute('data-of', 'check')
  await expect(row('notes').getByTestId('mcp-checked')).toContainText('the session did not start it')

  await expect(row('notes')).toHaveAttribute('data-state', 'connected')
  await expect(row('notes')).toContainText('stdio')
  await expect(row('notes')).toContainText(`user settings ${join(served.home, 'settings.json')}`)
  await expect(row('notes').getByTestId('mcp-tools')).toContainText('read_graph')
  await expect(row('memory')).toHaveAttribute('data-state', 'awaiting-approval')
  await expect(row('memory').getByTestId('mcp-state')).toHaveText('awaiting approval')
  await expect(row('memory')).toContainText(`project .mcp.json ${join(repo, '.mcp.json')}`)
  await expect(row('gated')).toHaveAttribute('data-state', 'failed')
  await expect(row('gated').getByTestId('mcp-why')).toContainText('cannot start: ready.flag is missing')
  await section.scrollIntoViewIfNeeded()
  await snap(page, testInfo, '01-mcp-servers')
  const first = testInfo.outputPath('01-mcp-section.png')
  await section.screenshot({ path: first })
  await testInfo.attach('01-mcp-section', { path: first, contentType: 'image/png' })
  mkdirSync(join(__dirname, '..', 'docs', 'screenshots'), { recursive: true })
  await section.screenshot({ path: join(__dirname, '..', 'docs', 'screenshots', 'settings-mcp.png') })

  await row('memory').getByRole('button', { name: 'Approve' }).click()
  await expect(row('memory')).toHaveAttribute('data-state', 'connected', { timeout: 30_000 })
  await expect(row('memory').getByTestId('mcp-tools')).toContainText('create_entities')
  const local = JSON.parse(readFileSync(join(repo, '.swarmdesk', 'settings.local.json'), 'utf8'))
  expect(local.enabledMcpjsonServers).toEqual(['memory'])
  expect(Object.keys(local.mcpServers)).toEqual(['live'])

  writeFileSync(flag, '')
  // the last check is kept until asked: still failed, then connected after Reconnect
  await expect(row('gated')).toHaveAttribute('data-state', 'failed')
  await row('gated').getByRole('button', { name: 'Reconnect' }).click()
  await expect(row('gated')).toHaveAttribute('data-state', 'connected', { timeout: 30_000 })
  await expect(row('gated').getByTestId('mcp-why')).toHaveCount(0)
  await snap(page, testInfo, '02-mcp-approved-reconnected')
})
