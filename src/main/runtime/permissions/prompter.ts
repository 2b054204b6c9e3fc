import type { PermissionPromptAnswer, PermissionPromptRequest } from '../../../shared/permissions'

/**
 * Whoever answers permission questions: the CLI (interactive or `--approve`), later the UI
 * (SPEC §4, §11). `prompt` resolves once, with the first answer; when `signal` aborts it resolves
 * as a `cancelled` denial instead of rejecting.
 */
export interface PermissionPrompter {
  prompt(request: PermissionPromptRequest, signal: AbortSignal): Promise<PermissionPromptAnswer>
}
