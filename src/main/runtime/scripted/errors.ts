/**
 * Errors of the scripted model server (docs/model.md#model-access, docs/scenarios.md#scripted-model-scenarios). One base, subclassed by blame: a scenario
 * file that cannot be used ({@link ScenarioError}, the author's fault, raised at load time) and a
 * request the scenario has no answer for ({@link ScriptUnavailableError}, raised while serving and
 * answered to the client as HTTP 400 `scenario_error`). `name` is set explicitly so it survives
 * structured cloning across IPC and worker boundaries.
 */
export class ScriptedModelError extends Error {
  override name = 'ScriptedModelError'
}

/**
 * A scenario file that is unreadable or malformed. `message` reads
 * `<file>: <path inside it>: <reason>` (path omitted when the whole file is at fault), e.g.
 * `demo.yaml: agents.team-lead[2].tools[0].name: Invalid input: expected string, received number`.
 */
export class ScenarioError extends ScriptedModelError {
  override name = 'ScenarioError'
  constructor(
    /** The file as the caller named it. */
    readonly file: string,
    /** Dotted path inside the file (`agents.team-lead[2].tools[0].name`), or '' for the file. */
    readonly path: string,
    readonly reason: string
  ) {
    super(path ? `${file}: ${path}: ${reason}` : `${file}: ${reason}`)
  }
}

/** Why a request found no turn: no script matches the agent, or its script is used up. */
export type ScriptUnavailableReason = 'no_script' | 'exhausted'

/**
 * A request the scenario cannot answer (docs/scenarios.md#scripted-model-scenarios). The server sends it as HTTP 400
 * `{type:"error", error:{type:"scenario_error", message}}`; `message` starts with
 * `(no script)` or `(scenario exhausted)` and names the agent and the script.
 */
export class ScriptUnavailableError extends ScriptedModelError {
  override name = 'ScriptUnavailableError'
  constructor(
    readonly reason: ScriptUnavailableReason,
    detail: string
  ) {
    super(`(${reason === 'no_script' ? 'no script' : 'scenario exhausted'}) ${detail}`)
  }
}
