/** Bad input to a run or a workspace (exit code 2): the message says what was wrong and what to do. */
export class RunUsageError extends Error {
  override readonly name: string = 'RunUsageError'
}
