/**
 * The Bash sandbox in a headless `swarmdesk run` (docs/sandbox.md#network,
 * docs/sandbox.md#where-the-sandbox-cannot-start), the CLI as a user runs it: with no one to ask
 * (`--approve none`) a sandboxed command's connection to a new domain is refused, the result
 * names the host and the question is in the event stream and the permission log, while `--approve all` lets it through; where bwrap is missing from `PATH`, a
 * command runs unconfined with a warning naming the cause, or is refused with `failIfUnavailable`.
 * Real bwrap and socat, an HTTP server on 127.0.0.1 reached as `localhost` through the proxy.
 */
import {
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  existsSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { forwarderAvailable, NETWORK_TOOL, sandboxAvailability } from '../runtime/sandbox'
import { workspaceSlug } from '../runtime/storage/paths'
import { ofType, runCli, useTempWorkspace } from './cli.testkit'
import { useHelloServer } from '../runtime/sandbox/helloServer.testkit'

const dirs = useTempWorkspace()

const hello = useHelloServer()

/** A run of `command` as the leader's one Bash call, with `sandbox` as the user's settings block. */
async function run(command: string, sandbox: object, args: string[], env: Record<string, string> = {}) {
  writeFileSync(join(dirs.home, 'settings.json'), JSON.stringify({ sandbox }))
  const scenario = join(dirs.home, 's.json')
  writeFileSync(
    scenario,
    JSON.stringify({ agents: { 'team-lead': [{ tools: [{ name: 'Bash', input: { command } }] }, { text: 'Done.' }] } })
  )
  const r = await runCli(['run', '--cwd', dirs.work, '--scenario', scenario, '--json', ...args, 'go'], {
    env: { SWARMDESK_HOME: dirs.home, ANTHROPIC_API_KEY: '', ...env }
  })
  expect(r.code, r.stderr).toBe(0)
  return { events: r.events, result: ofType(r.events, 'tool_result')[0]! }
}

describe.runIf(sandboxAvailability().ok && forwarderAvailable())('a headless run with the sandbox on', () => {
  it('refuses a new domain with --approve none, naming the host; lets it through with --approve all', async () => {
    const curl = (who: string) =>
      `env -u NO_PROXY -u no_proxy curl -s --max-time 30 -w ' %{http_code}' http://localhost:${hello.port()}/${who}`
    const refused = await run(curl('none'), { enabled: true }, ['--approve', 'none'])
    expect(refused.result.output).toContain('Sandbox blocked a network connection to localhost')
    expect(refused.result.output).toMatch(/ 403/)
    // the question is in the event stream and the permission log, answered by the flag
    const asked = ofType(refused.events, 'permission_request').filter((r) => r.tool === NETWORK_TOOL)
    expect(asked.map((r) => [r.agentName, r.input])).toEqual([['team-lead', { host: 'localhost' }]])
    expect(ofType(refused.events, 'permission_decided')).toContainEqual(
      expect.objectContaining({ requestId: asked[0]!.requestId, decision: 'deny', by: 'approve-flag' })
    )
    const sessionId = ofType(refused.events, 'run_finished')[0]!.sessionId!
    const log = readFileSync(
      join(dirs.home, 'projects', workspaceSlug(dirs.work), sessionId, 'permissions.jsonl'),
      'utf8'
    )
    expect(log).toContain('"tool":"SandboxNetwork"')
    expect(hello.served).not.toContain('/none')

    const allowed = await run(curl('all'), { enabled: true }, ['--approve', 'all'])
    expect(allowed.result.output).toContain('hello all 200')
    expect(allowed.result.sandbox).toBe('sandboxed')
    expect(hello.served).toContain('/all')
  }, 120_000)
})

describe('a headless run where the sandbox cannot start', () => {
  let bin = ''
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-nobwrap-out-')))
  beforeAll(() => {
    // PATH: every program of /usr/bin but bwrap
    bin = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-nobwrap-bin-')))
    for (const name of readdirSync('/usr/bin'))
      if (name !== 'bwrap') symlinkSync(join('/usr/bin', name), join(bin, name))
  })
  afterAll(() => {
    rmSync(bin, { recursive: true, force: true })
    rmSync(outside, { recursive: true, force: true })
  })

  it('runs the command unconfined with a warning naming the cause, or refuses it with failIfUnavailable', async () => {
    const warned = await run(`touch ${outside}/warned.txt`, { enabled: true }, ['--approve', 'all'], { PATH: bin })
    expect(warned.result.output).toMatch(
      /Warning: ran without the sandbox: bubblewrap \(bwrap\) is not installed .*apt-get install bubblewrap/
    )
    expect(existsSync(join(outside, 'warned.txt'))).toBe(true)
    // the JSON stream marks it as run outside, the sandbox being unavailable
    expect(warned.result.sandbox).toBe('unavailable')

    const refused = await run(
      `touch ${outside}/refused.txt`,
      { enabled: true, failIfUnavailable: true },
      ['--approve', 'all'],
      {
        PATH: bin
      }
    )
    expect(refused.result.isError).toBe(true)
    expect(refused.result.output).toMatch(
      /The sandbox cannot start, and sandbox.failIfUnavailable is set, so the command did not run: bubblewrap \(bwrap\) is not installed/
    )
    expect(existsSync(join(outside, 'refused.txt'))).toBe(false)
    expect(refused.result.sandbox).toBeUndefined()
  }, 120_000)
})
