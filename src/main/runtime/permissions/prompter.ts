import type { PermissionPromptAnswer, PermissionPromptRequest } from '../../../shared/permissions'

/**
 * Whoever answers permission questions: the CLI (interactive or `--approve`), later the UI
 * (docs/permissions.md#permissions, docs/ui.md#the-workspace-ui). `prompt` resolves once, with the first answer; when `signal` aborts it resolves
 * as a `cancelled` denial instead of rejecting.
 */
export interface PermissionPrompter {
  prompt(request: PermissionPromptRequest, signal: AbortSignal): Promise<PermissionPromptAnswer>
}
