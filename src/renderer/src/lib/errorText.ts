/** An error as a person reads it: the runtime's message, without the transport's class name. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
