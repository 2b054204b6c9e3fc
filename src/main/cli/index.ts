/**
 * The headless command line (SPEC §14). `main(argv)` resolves to the process exit code:
 * 0 success, 1 the run failed, 2 bad usage or bad input.
 */
export async function main(argv: string[]): Promise<number> {
  const [command] = argv
  process.stderr.write(`swarmdesk: unknown command '${command ?? ''}'\n`)
  return 2
}
