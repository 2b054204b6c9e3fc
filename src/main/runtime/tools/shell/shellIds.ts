import { type BackgroundShells } from '../../pty'
import { ToolError } from '../types'

/**
 * The error for a shell id the agent does not own, listing the ids it does own so the model can
 * retry with a right one: `No background shell with ID "bash_9". This agent's shells: bash_1
 * (running: npm run dev), …` or `… This agent has no background shells.`
 */
export function unknownShellError(shellId: string, shells: BackgroundShells): ToolError {
  const list = shells.list?.() ?? []
  const known =
    list.length === 0
      ? 'This agent has no background shells.'
      : `This agent's shells: ${list.map((shell) => `${shell.shellId} (${shell.status}: ${shell.command})`).join(', ')}`
  return new ToolError(`No background shell with ID "${shellId}". ${known}`)
}
