import { createDemoWorkspace, demoPaths } from '../../app/demoWorkspace'
import { parseCommandArgs, UsageError } from '../io'
import { demoWithUi, endDemoWorkspace } from './demoUi'
import { executeRun, parseApprove } from './run'

/** What the leader is asked in the demo. */
export const DEMO_PROMPT = 'Survey this project, run its tests, and fix whatever makes them fail.'

/**
 * `swarmdesk demo [--headless] [--json] [--approve all|none|ask] [--keep]` (docs/events.md#event-stream-and-command-line): the main
 * job on a fresh copy of the bundled sample workspace, offline, against the scripted model. On no
 * TTY `--approve` defaults to `all` (the workspace is a throwaway copy). Without `--headless` (and
 * without `--json`, whose event stream only a headless run prints) the demo opens in the workspace
 * UI: the app window where Electron is installed, else the browser UI served by the web host.
 * The copy, under the temp folder, is removed when the demo ends — also on Ctrl+C or SIGTERM —
 * unless `--keep`, which says where it stays.
 */
export async function demoCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('demo', argv, {
    headless: { type: 'boolean' },
    json: { type: 'boolean' },
    approve: { type: 'string' },
    keep: { type: 'boolean' }
  })
  const approve = parseApprove(values.approve, process.stdin.isTTY === true ? 'ask' : 'all')
  const keep = values.keep === true
  if (!values.headless && !values.json) {
    if (values.approve !== undefined)
      throw new UsageError(
        'swarmdesk demo: --approve applies to the headless demo (--headless or --json); in the UI you answer each request yourself.'
      )
    return demoWithUi(DEMO_PROMPT, {}, { keep })
  }
  // SIGTERM ends the run as Ctrl+C does, so the workspace is removed either way
  const stop = new AbortController()
  const onTerm = (): void => stop.abort()
  process.once('SIGTERM', onTerm)
  const workspace = await createDemoWorkspace()
  try {
    if (!values.json)
      process.stdout.write(
        `Demo workspace: ${workspace}\nModel: scripted (offline), scenario ${demoPaths().scenario}\n\n`
      )
    return await executeRun(
      {
        cwd: workspace,
        scenario: demoPaths().scenario,
        settingsFiles: [],
        trustProject: false,
        fork: false,
        coordinator: false,
        json: values.json ?? false,
        approve,
        prompt: DEMO_PROMPT
      },
      { scripted: true, signal: stop.signal }
    )
  } finally {
    process.removeListener('SIGTERM', onTerm)
    await endDemoWorkspace(workspace, keep, (line) =>
      (values.json ? process.stderr : process.stdout).write(`${line}\n`)
    )
  }
}
