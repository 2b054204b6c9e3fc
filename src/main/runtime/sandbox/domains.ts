import type { SandboxSettings } from '../permissions'

/**
 * Whether `host` matches a domain pattern of `sandbox.network` (docs/sandbox.md#network): an exact
 * name (`example.com`, that host only) or a wildcard `*.example.com`, which matches every name
 * below it (`api.example.com`, `a.b.example.com`) but not `example.com` itself, as in Claude Code.
 * Case-insensitive; a trailing dot of a fully qualified name is ignored.
 */
export function domainMatches(host: string, pattern: string): boolean {
  const h = normalise(host)
  const p = normalise(pattern)
  if (p.startsWith('*.')) return h.endsWith(p.slice(1)) && h.length > p.length - 1
  return h === p
}

const normalise = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '')

/**
 * What the proxy does with a connection to `host` (docs/sandbox.md#network): `deny` when a
 * `deniedDomains` pattern matches (a deny wins over an allow), `allow` when an `allowedDomains`
 * pattern matches, otherwise `ask`: a person decides, once per domain and session.
 */
export function domainVerdict(host: string, network: SandboxSettings['network']): 'allow' | 'deny' | 'ask' {
  if (network.deniedDomains.some((p) => domainMatches(host, p))) return 'deny'
  if (network.allowedDomains.some((p) => domainMatches(host, p))) return 'allow'
  return 'ask'
}

/**
 * Whether `host` is a plain host name or address (letters, digits, `-`, `.`, `:` of an IPv6
 * address): what a network question may offer to keep for good. A host a client named as a pattern
 * (`*.com`) is never written into `allowedDomains`, where it would allow every name it matches.
 */
export function isPlainHost(host: string): boolean {
  return /^[a-z0-9]([a-z0-9.:-]*[a-z0-9])?$/i.test(host) && host.length <= 253
}
