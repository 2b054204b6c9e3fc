import type { PermissionSubject } from '../../shared/permissions'
import { findCoreTool } from '../runtime/tools/registry'
import { UsageError } from './io'

/**
 * Maps a tool call to its permission subject for `permissions check` with the real tools'
 * own mapping (`Tool.permissionSubject`). Tools outside the core set are decided by tool-name
 * rules and the mode.
 * @throws UsageError when the input does not fit the tool's schema.
 */
export function resolveToolSubject(tool: string, input: unknown, cwd: string): PermissionSubject {
  const found = findCoreTool(tool)
  if (!found) return { kind: 'tool', readOnly: false }
  const parsed = found.inputSchema.safeParse(input)
  if (!parsed.success) {
    throw new UsageError(`--input does not fit ${tool}'s input: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ')}`)
  }
  return found.permissionSubject(parsed.data, { cwd })
}
