// Entry of the child processes the task, team and lock tests race against: one JSON command in
// argv[2], `ready` on stdout once loaded, results as JSON lines. Bundled by buildChild().
import { existsSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { acquireLock } from '../locks'
import { TeamStore } from '../teams'
import { TaskStore } from './store'

type Command =
  | { op: 'claim'; home: string; team: string; id: number; agent: string; go: string }
  | { op: 'createMany'; home: string; team: string; count: number; prefix: string; go: string }
  | { op: 'addMembers'; home: string; team: string; names: string[]; go: string }
  | { op: 'update'; home: string; team: string; id: number; subject: string }
  | { op: 'holdLock'; path: string }
  | { op: 'lead'; home: string; team: string; sessionId: string }
  | { op: 'link'; home: string; team: string; id: number; addBlockedBy: number[]; go: string }

const out = (value: unknown) => process.stdout.write(JSON.stringify(value) + '\n')

async function waitFor(file: string): Promise<void> {
  while (!existsSync(file)) await sleep(1)
}

async function main(cmd: Command): Promise<void> {
  switch (cmd.op) {
    case 'claim': {
      const store = new TaskStore(cmd.home, cmd.team)
      out('ready')
      await waitFor(cmd.go)
      out(await store.claim(cmd.id, cmd.agent))
      return
    }
    case 'createMany': {
      const store = new TaskStore(cmd.home, cmd.team)
      out('ready')
      await waitFor(cmd.go)
      const ids: number[] = []
      for (let i = 0; i < cmd.count; i++) ids.push((await store.create({ subject: `${cmd.prefix} ${i}` })).id)
      out(ids)
      return
    }
    case 'addMembers': {
      const store = new TeamStore(cmd.home)
      out('ready')
      await waitFor(cmd.go)
      for (const name of cmd.names)
        await store.addMember(cmd.team, {
          name,
          agentType: 'general-purpose',
          model: 'm',
          backendType: 'process',
          cwd: '/'
        })
      out('done')
      return
    }
    case 'update': {
      out('ready')
      out(await new TaskStore(cmd.home, cmd.team).update(cmd.id, { subject: cmd.subject }))
      return
    }
    case 'link': {
      const store = new TaskStore(cmd.home, cmd.team)
      out('ready')
      await waitFor(cmd.go)
      try {
        await store.update(cmd.id, { addBlockedBy: cmd.addBlockedBy })
        out({ ok: true })
      } catch (error) {
        out({ ok: false, name: (error as Error).name, message: (error as Error).message })
      }
      return
    }
    case 'lead': {
      // a leader session that stays alive: its team's lease names this process
      await new TeamStore(cmd.home).createAsLeader(
        { name: cmd.team, lead: { name: 'team-lead', agentType: 'main', model: 'm', backendType: 'main', cwd: '/' } },
        cmd.sessionId
      )
      await new TaskStore(cmd.home, cmd.team).create({ subject: 'work of the live team' })
      out('ready')
      setInterval(() => {}, 60_000)
      return
    }
    case 'holdLock': {
      await acquireLock(cmd.path)
      out('ready')
      setInterval(() => {}, 60_000)
      return
    }
  }
}

main(JSON.parse(process.argv[2]) as Command).catch((error: unknown) => {
  process.stderr.write(String((error as Error).stack ?? error) + '\n')
  process.exit(1)
})
