/**
 * The sandbox's network questions reach the leader from every host (docs/sandbox.md#network): the
 * leader's own sandboxed curl asks through its prompter (the permission card), a process
 * teammate's goes as a `sandbox_permission_request` through the leader's inbox and comes back as a
 * `sandbox_permission_response`, a worker teammate's through the leader's queue. A host is asked
 * about once per session on the leader's side.
 *
 * All real: a Session with a team, the scripted model over HTTP, the Bash tool in real PTYs under
 * /usr/bin/bwrap with socat, a worker thread, a `swarmdesk teammate` child process, and an HTTP
 * server on 127.0.0.1 reached as `localhost` (NO_PROXY is cleared for curl, so it goes through the
 * proxy; nothing leaves the machine).
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EventOf } from '../../../shared/events'
import { parseMessageBody } from '../../../shared/mailbox'
import type { PermissionPromptRequest } from '../../../shared/permissions'
import { createMailbox } from '../mailbox'
import type { PermissionPrompter } from '../permissions'
import { forwarderAvailable, NETWORK_TOOL, sandboxAvailability } from '../sandbox'
import { bothTeammateBackends } from './teammateBackends.testkit'
import { openTestSession } from './session.testkit'
import { useHelloServer } from '../sandbox/helloServer.testkit'

const hello = useHelloServer()

const curl = (who: string) => ({
  name: 'Bash',
  input: { command: `env -u NO_PROXY -u no_proxy curl -s --max-time 30 http://localhost:${hello.port()}/${who}` }
})

describe.runIf(sandboxAvailability().ok && forwarderAvailable())('network questions from every host', () => {
  it('the leader asks by its card, a process teammate by sandbox_permission_request, a worker by the queue', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sandbox-net-home-')))
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ sandbox: { enabled: true } }))
    const asked: Array<{ via: string; request: PermissionPromptRequest }> = []
    const person = (via: string): PermissionPrompter => ({
      prompt: async (request) => {
        asked.push({ via, request })
        return { decision: 'allow', by: 'user' }
      }
    })
    const noted = Array.from({ length: 12 }, () => ({ text: 'Noted.' }))
    const backends = bothTeammateBackends(person('worker'), () => h.server.url)
    const h = await openTestSession({
      mode: 'bypassPermissions',
      home,
      prompter: person('leader'),
      scenario: {
        agents: {
          'team-lead': [
            { tools: [curl('team-lead')] },
            { tools: [{ name: 'TeamCreate', input: { team_name: 'crew' } }] },
            {
              tools: [
                { name: 'Agent', input: { name: 'wally', backend: 'worker', description: 'w', prompt: 'Start.' } },
                { name: 'Agent', input: { name: 'pat', backend: 'process', description: 'p', prompt: 'Start.' } }
              ]
            },
            ...noted
          ],
          wally: [{ tools: [curl('wally')] }, ...noted],
          pat: [{ tools: [curl('pat')] }, ...noted]
        }
      },
      teammates: backends.teammates
    })
    try {
      h.session.prompt('Fetch, then start the crew.').catch(() => undefined)
      const resultOf = async (agentName: string): Promise<EventOf<'tool_result'>> => {
        const deadline = Date.now() + 90_000
        for (;;) {
          const call = h.events.find(
            (e): e is EventOf<'tool_call'> => e.type === 'tool_call' && e.name === 'Bash' && e.agentName === agentName
          )
          const result =
            call &&
            h.events.find(
              (e): e is EventOf<'tool_result'> => e.type === 'tool_result' && e.toolUseId === call.toolUseId
            )
          if (result) return result
          if (Date.now() > deadline) throw new Error(`no Bash result from ${agentName}`)
          await new Promise((r) => setTimeout(r, 50))
        }
      }
      for (const who of ['team-lead', 'wally', 'pat'])
        expect((await resultOf(who)).output, who).toContain(`hello ${who}`)
      expect(hello.served.sort()).toEqual(['/pat', '/team-lead', '/wally'])

      // one card for localhost on the leader's side (the process teammate's question was answered
      // from it), one on the worker's queue
      const network = asked.filter((a) => a.request.tool === NETWORK_TOOL)
      expect(network.map((a) => [a.via, a.request.agentName, a.request.input])).toEqual([
        ['leader', 'team-lead', { host: 'localhost' }],
        ['worker', 'wally', { host: 'localhost' }]
      ])
      // every host's question is on the session's event stream, as the asking agent's
      const shown = h.events.filter(
        (e): e is EventOf<'permission_request'> => e.type === 'permission_request' && e.tool === NETWORK_TOOL
      )
      expect(shown.map((e) => e.agentName).sort()).toEqual(['pat', 'team-lead', 'wally'])
      // the process teammate's question and its answer crossed the mailbox in Claude Code's shape
      const mailbox = createMailbox({ home })
      const bodies = async (name: string) =>
        (await mailbox.read('crew', name)).messages.map((e) => parseMessageBody(e.message.text))
      const request = (await bodies('team-lead')).find(
        (b) => b.kind === 'structured' && b.body.type === 'sandbox_permission_request'
      )
      expect(request).toMatchObject({ body: { workerName: 'pat', hostPattern: { host: 'localhost' } } })
      const answer = (await bodies('pat')).find(
        (b) => b.kind === 'structured' && b.body.type === 'sandbox_permission_response'
      )
      expect(answer).toMatchObject({ body: { host: 'localhost', allow: true } })
    } finally {
      await backends.registry()?.dispose()
      await h.close()
      rmSync(home, { recursive: true, force: true })
    }
  }, 150_000)
})
