/** What a command's terminal environment is made of (docs/tools.md#shell-tools). */
/**
 * Fixed environment of every command (docs/tools.md#tools, STACK.md): a pager, a credential prompt or an
 * editor would wait forever on a terminal nobody types into. GIT_EDITOR=true makes `git commit`
 * without -m and `git rebase -i` take the default text instead of opening an editor.
 */
export const FIXED_PTY_ENV: Readonly<Record<string, string>> = {
  TERM: 'xterm-256color',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  GIT_EDITOR: 'true'
}

/**
 * Secrets of Swarmdesk's own that agents' commands must not see: the model credentials (an agent
 * running `env` would otherwise print the key into its context and transcript).
 */
export const WITHHELD_ENV = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'] as const

/** The environment of every command: the process's own without {@link WITHHELD_ENV}, {@link FIXED_PTY_ENV}, then `extra`. */
export function commandEnv(extra: Record<string, string> | undefined): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !(WITHHELD_ENV as readonly string[]).includes(key)) env[key] = value
  return { ...env, ...FIXED_PTY_ENV, ...extra }
}
