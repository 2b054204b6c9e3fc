import { z } from 'zod'

/**
 * One entry of the `teammateHosts` setting (docs/hosts.md#the-teammatehosts-setting): a machine a
 * `process` teammate can run on, reached with the system `ssh`.
 * - `name`: what a spawn's `host` names (letters, digits, `-`, `_`, `.`).
 * - `destination`: ssh's `[user@]host` (no leading `-`: never read as an option).
 * - `workspace`: an absolute folder on the host; each teammate's clone goes under it
 *   (`<workspace>/<team>/<name>`).
 * - `command`: how `swarmdesk` starts there (`swarmdesk`, or `node /opt/swarmdesk/out/node/cli.mjs`);
 *   run by the host's login shell, `teammate …` appended.
 * - `port`, `identityFile`: ssh's `-p` and `-i`.
 * - `sshOptions`: more `-o` options, each `Key=Value` (say `ProxyJump=bastion`).
 */
export const TeammateHostSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'a host name is letters, digits, ".", "-" and "_" (at most 63)'),
  destination: z
    .string()
    .min(1)
    .regex(/^[^-\s][^\s]*$/, 'destination is ssh\'s [user@]host: no spaces, not starting with "-"'),
  workspace: z.string().regex(/^\/[^\n]*$/, 'workspace must be an absolute path on the host'),
  command: z.string().min(1, 'command says how to start swarmdesk on the host, like "swarmdesk"'),
  port: z.number().int().min(1).max(65_535).optional(),
  identityFile: z.string().min(1).optional(),
  sshOptions: z
    .array(z.string().regex(/^[A-Za-z][A-Za-z0-9]*=[^\n]*$/, 'each ssh option is Key=Value, like "ProxyJump=bastion"'))
    .optional()
})
export type TeammateHost = z.infer<typeof TeammateHostSchema>

/** The `teammateHosts` setting: a list of hosts with distinct names. */
export const TeammateHostsSchema = z.array(TeammateHostSchema).superRefine((hosts, ctx) => {
  const seen = new Set<string>()
  hosts.forEach((host, i) => {
    if (seen.has(host.name))
      ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `host name "${host.name}" is used twice` })
    seen.add(host.name)
  })
})
