import { createDemoWorkspace, demoPaths } from '../../runtime/workspace/demoWorkspace'
import { parseCommandArgs } from '../io'
import { executeRun, parseApprove } from './run'

/** What the leader is asked in the demo. */
export const DEMO_PROMPT = 'Survey this project, run its tests, and fix whatever makes them fail.'

/**
 * `swarmdesk demo [--headless] [--json] [--approve all|none|ask]` (SPEC §14): the main job on a
 * fresh copy of the bundled sample workspace, offline, against the scripted model. On no TTY
 * `--approve` defaults to `all` (the workspace is a throwaway copy). This build has no app window,
 * so the demo always runs headless.
 */
export async function demoCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('demo', argv, { headless: { type: 'boolean' }, json: { type: 'boolean' }, approve: { type: 'string' } })
  const approve = parseApprove(values.approve, process.stdin.isTTY === true ? 'ask' : 'all')
  const workspace = await createDemoWorkspace()
  if (!values.json) {
    const note = values.headless ? '' : ' (this build has no app window yet, so the demo runs headless)'
    process.stdout.write(`Demo workspace: ${workspace}${note}\nModel: scripted (offline), scenario ${demoPaths().scenario}\n\n`)
  }
  return executeRun(
    { cwd: workspace, scenario: demoPaths().scenario, settingsFiles: [], trustProject: false, json: values.json ?? false, approve, prompt: DEMO_PROMPT },
    { scripted: true }
  )
}
