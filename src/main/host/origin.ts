import type { IncomingMessage } from 'node:http'

/**
 * Which `Host` and `Origin` values a host listening on `host:port` accepts: itself by IP and as
 * `localhost`. Anything else is another site (or DNS rebinding) and is refused with 403 (docs/events.md#event-stream-and-command-line).
 */
export class OriginPolicy {
  private readonly hosts: Set<string>
  private readonly origins: Set<string>

  constructor(host: string, port: number) {
    const names = new Set(['127.0.0.1', 'localhost', host])
    this.hosts = new Set([...names].map((name) => `${name}:${port}`))
    this.origins = new Set([...this.hosts].map((h) => `http://${h}`))
  }

  /** The origins a page served by this host has, e.g. `http://127.0.0.1:4000`. */
  allowedOrigins(): string[] {
    return [...this.origins]
  }

  /**
   * Why the request must be refused, or undefined when it may proceed. A missing `Origin` is
   * accepted (address-bar navigations and non-browser clients send none; the token still guards
   * them); a present one must be this host's own. `Host` must name this host, so a rebound DNS
   * name cannot reach it through a victim's browser.
   */
  refusal(req: IncomingMessage): string | undefined {
    const host = req.headers.host?.toLowerCase()
    if (host === undefined || !this.hosts.has(host)) return `Host '${req.headers.host ?? ''}' is not this server`
    const origin = req.headers.origin
    if (origin !== undefined && !this.origins.has(origin.toLowerCase())) return `Origin '${origin}' is not allowed`
    return undefined
  }
}
