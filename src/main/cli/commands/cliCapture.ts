import { vi } from 'vitest'

/** Runs a command in-process with SWARMDESK_HOME set, capturing what it prints. Tests only. */
export async function capture(
  home: string,
  run: () => Promise<number>
): Promise<{ code: number; stdout: string; stderr: string }> {
  const saved = process.env.SWARMDESK_HOME
  process.env.SWARMDESK_HOME = home
  let stdout = ''
  let stderr = ''
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true))
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true))
  try {
    return { code: await run(), stdout, stderr }
  } finally {
    o.mockRestore()
    e.mockRestore()
    if (saved === undefined) delete process.env.SWARMDESK_HOME
    else process.env.SWARMDESK_HOME = saved
  }
}
