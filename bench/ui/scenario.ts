import { join } from 'node:path'
import { packageRoot } from '../../src/main/runtime/install/packageRoot'
import { LINE_BYTES } from './line.mjs'

/** One run's load: `panes` producing agents, `visible` of their panes shown, each writing `bytesPerSecond` for `seconds`. */
export interface UiLoad {
  panes: number
  visible: number
  bytesPerSecond: number
  seconds: number
}

/** The name of producer `i`'s agent (its Agent description `producer NN` made a slug, docs/agents.md#agent-definitions). */
export function producerName(i: number): string {
  return `producer-${String(i).padStart(2, '0')}`
}

/**
 * The scripted scenario (docs/scenarios.md#scripted-model-scenarios) of a Swarmdesk run: the leader launches one background
 * subagent per producer and ends its turn (so the prompt box is enabled for typing); each
 * subagent runs `node bench/ui/producer.mjs <i> <rate> <seconds> <dir>` with Bash, in a PTY of the
 * workspace, then reports; the leader acknowledges each notification.
 */
export function producerScenario(load: UiLoad, dir: string): object {
  const producer = join(packageRoot(), 'bench', 'ui', 'producer.mjs')
  const agents: Record<string, unknown[]> = {
    'team-lead': [
      {
        text: `Starting ${load.panes} producers.`,
        tools: Array.from({ length: load.panes }, (_, i) => ({
          name: 'Agent',
          input: {
            description: producerName(i).replace('-', ' '),
            prompt: 'Print coloured output at a fixed rate.',
            run_in_background: true
          }
        }))
      },
      { text: 'Every producer is running.' },
      ...Array.from({ length: load.panes }, () => ({ when: '<task-notification>', text: 'A producer finished.' }))
    ]
  }
  for (let i = 0; i < load.panes; i++) {
    const command = `'${process.execPath}' '${producer}' ${i} ${load.bytesPerSecond} ${load.seconds} '${dir}'`
    agents[producerName(i)] = [
      { tools: [{ name: 'Bash', input: { command, description: 'Print coloured output', timeout: 600_000 } }] },
      { text: 'Produced.' }
    ]
  }
  return { name: 'bench-ui', agents }
}

/** Bytes the load asks of all producers: whole lines of rate × seconds each (producer.mjs). */
export function offeredBytes(load: UiLoad): number {
  return load.panes * Math.floor((load.bytesPerSecond * load.seconds) / LINE_BYTES) * LINE_BYTES
}
