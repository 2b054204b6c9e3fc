// Entry of the child processes the team store contract races against: one JSON command in
// argv[2], `"ready"` on stdout once the store is open, results as JSON lines. Bundled by the tests.
import { existsSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { openTeamStore } from './open'
import type { TeamTransport } from './transport'

type Command = { home: string; transport: TeamTransport; team: string; livenessTtlMs?: number } & (
  | { op: 'claim'; id: number; agent: string; go: string }
  | { op: 'beat'; agent: string }
  | { op: 'wait'; agent: string }
  | { op: 'burst'; from: string; to: string; count: number }
  | { op: 'allow'; path: string }
  | { op: 'deleteTeam' }
)

const out = (value: unknown): void => {
  process.stdout.write(JSON.stringify(value) + '\n')
}

async function main(cmd: Command): Promise<void> {
  const store = await openTeamStore(cmd.home, cmd.transport, { livenessTtlMs: cmd.livenessTtlMs })
  try {
    switch (cmd.op) {
      case 'claim':
        out('ready')
        while (!existsSync(cmd.go)) await sleep(1)
        out(await store.tasks.claim(cmd.team, cmd.id, cmd.agent))
        return
      case 'beat':
        await store.liveness.beat(cmd.team, cmd.agent)
        out('ready')
        for (;;) {
          await sleep(store.liveness.beatEveryMs)
          await store.liveness.beat(cmd.team, cmd.agent)
        }
      case 'wait': {
        const waiting = store.mailbox.waitForMessage(cmd.team, cmd.agent)
        // the consumer is set up within the call; give it its first round trip before saying ready
        await sleep(50)
        out('ready')
        const entry = await waiting
        out({ id: entry.message.id, at: Date.now() })
        return
      }
      case 'burst':
        out('ready')
        for (let i = 0; i < cmd.count; i++) {
          const { id } = await store.mailbox.send(cmd.team, cmd.to, { from: cmd.from, text: `burst ${i}` })
          out(id)
        }
        return
      case 'allow':
        await store.config.update(cmd.team, (c) => ({ ...c, allowedPaths: [...c.allowedPaths, cmd.path] }))
        out('ready')
        return
      case 'deleteTeam':
        await store.config.delete(cmd.team)
        out('ready')
        return
    }
  } finally {
    await store.close()
  }
}

main(JSON.parse(process.argv[2]!) as Command).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`)
    process.exit(1)
  }
)
