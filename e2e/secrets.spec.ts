import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { startScriptedServer } from '../src/main/runtime/scripted'
import { expect, paneText, snap, test } from './fixtures'

/**
 * Issue 10: the API key never reaches the renderer, logs, transcripts or any file Swarmdesk
 * writes. A marker key drives a whole team session (a worker and a process teammate) against the
 * scripted model, which accepts that key only; every agent runs `env` and echoes the key's
 * variable, the way a prompt-injected agent would try to read it. Then everything is searched.
 */
const MARKER = 'sk-ant-api03-SWARMDESK-MARKER-KEY-7f3a9c1e'
const PEEK = {
  name: 'Bash',
  input: {
    command: 'env | sort; echo "key=[$ANTHROPIC_API_KEY][$ANTHROPIC_AUTH_TOKEN]"',
    description: 'Read the environment'
  }
}
const checker = [
  { when: 'Check the environment', tools: [PEEK] },
  { text: 'Checked: {{last_tool_result}}' },
  ...Array.from({ length: 4 }, () => ({ text: 'Nothing else.' }))
]

/** Every file under `dir`, as text (bytes decoded as latin1, so a key in any encoding of ASCII shows). */
function filesUnder(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((rel) => join(dir, rel))
    .filter((path) => statSync(path, { throwIfNoEntry: false })?.isFile())
    .map((path) => ({ path, text: readFileSync(path).toString('latin1') }))
}

test('a marker API key drives a team session and appears in no page, frame, pane, file or output of Swarmdesk', async ({
  page,
  repo,
  serve
}, testInfo) => {
  const server = await startScriptedServer({
    scenario: {
      apiKey: MARKER,
      agents: {
        'team-lead': [
          { tools: [{ name: 'TeamCreate', input: { team_name: 'vault' } }] },
          {
            tools: [
              {
                name: 'Agent',
                input: {
                  name: 'wendy',
                  backend: 'worker',
                  mode: 'bypassPermissions',
                  description: 'checker',
                  prompt: 'Check the environment.'
                }
              },
              {
                name: 'Agent',
                input: {
                  name: 'pete',
                  backend: 'process',
                  mode: 'bypassPermissions',
                  description: 'checker',
                  prompt: 'Check the environment.'
                }
              },
              PEEK
            ]
          },
          { text: 'Two checkers at work; mine: {{last_tool_result}}' },
          ...Array.from({ length: 12 }, () => ({ text: 'Noted.' }))
        ],
        wendy: checker,
        pete: checker
      }
    }
  })
  try {
    const frames: string[] = []
    page.on('websocket', (ws) =>
      ws.on('framereceived', (f) =>
        frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('latin1'))
      )
    )
    const served = await serve(undefined, {
      permissionMode: 'bypassPermissions',
      model: { baseUrl: server.url, apiKey: MARKER }
    })
    await page.goto(served.url)
    const input = page.getByRole('textbox', { name: 'Message to the leader' })
    await input.fill('Start two checkers and check the environment yourself.')
    await input.press('Enter')

    // every agent ran the command: its output (without the key) is in its pane
    for (const agent of ['team-lead', 'wendy@vault', 'pete@vault']) {
      await expect
        .poll(() => paneText(page, agent), { timeout: 60_000, message: `${agent} pane` })
        .toContain('key=[][]')
      expect(await paneText(page, agent)).toContain('PATH=')
    }
    // both checkers reported back and everyone is idle (two idle notifications may wake the leader once)
    await expect.poll(() => paneText(page), { timeout: 60_000 }).toContain('Noted.')
    for (const agent of ['team-lead', 'wendy@vault', 'pete@vault']) {
      await expect(page.locator(`section.pane[data-agent-id="${agent}"]`).getByTestId('pane-state')).toHaveAttribute(
        'data-state',
        'idle',
        { timeout: 60_000 }
      )
    }
    await snap(page, testInfo, '01-checkers-ran')

    // the key did its work: the model saw it on every agent's requests (and takes no other)
    const requests = server.requests()
    const keyOf = (headers: Record<string, string>) =>
      headers['x-api-key'] ?? headers.authorization?.replace(/^Bearer\s+/i, '')
    for (const agent of ['team-lead', 'wendy', 'pete'])
      expect([...new Set(requests.filter((r) => r.agentName === agent).map((r) => keyOf(r.headers)))], agent).toEqual([
        MARKER
      ])
    expect(new Set(requests.map((r) => r.agentName))).toEqual(new Set(['team-lead', 'wendy', 'pete']))

    // … and it is nowhere else
    const panes = await Promise.all(['team-lead', 'wendy@vault', 'pete@vault'].map((a) => paneText(page, a)))
    const storage = await page.evaluate(() =>
      JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } })
    )
    const places: Array<{ where: string; text: string }> = [
      { where: 'the page HTML', text: await page.content() },
      { where: 'web storage', text: storage },
      ...frames.map((text, i) => ({ where: `WebSocket frame ${i}`, text })),
      ...panes.map((text, i) => ({ where: `pane ${i}`, text })),
      { where: 'serve stdout', text: served.stdout() },
      { where: 'serve stderr', text: served.stderr() },
      ...filesUnder(served.home).map((f) => ({ where: f.path, text: f.text })),
      ...filesUnder(repo).map((f) => ({ where: f.path, text: f.text }))
    ]
    expect(frames.length).toBeGreaterThan(10)
    expect(places.some((p) => p.where.includes('transcript') || p.where.endsWith('.jsonl'))).toBe(true)
    expect(places.some((p) => p.where.includes('inboxes'))).toBe(true)
    expect(places.filter((p) => p.text.includes(MARKER)).map((p) => p.where)).toEqual([])
    // not even a fragment long enough to be useful
    expect(places.filter((p) => p.text.includes(MARKER.slice(-16))).map((p) => p.where)).toEqual([])
  } finally {
    await server.close()
  }
})
