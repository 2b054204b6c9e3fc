/** The OS sandbox for Bash (docs/sandbox.md): bwrap, its network proxy, routing. */
export {
  blockedWrites,
  forwarderAvailable,
  isExcludedCommand,
  SANDBOX_PROXY_PORT,
  sandboxAvailability,
  type SandboxAvailability,
  sandboxedCommand,
  type SandboxScope
} from './bwrap'
export { domainMatches, domainVerdict, isPlainHost } from './domains'
export {
  agentProxySocket,
  NETWORK_TOOL,
  networkPromptRequest,
  promptNetworkAsker,
  refusedHostsSince,
  rememberNetworkAnswers,
  verdictOf,
  type NetworkAsker,
  type NetworkQuestion
} from './network'
export { startNetworkProxy, type ConnectionVerdict, type NetworkProxy, type NetworkProxyOptions } from './proxy'
export { sandboxRoute, type SandboxRoute } from './route'
export { watchGitRedirects, type GitGuard } from './gitGuard'
export {
  AllowDomainError,
  allowDomainLocally,
  domainKeptNotice,
  keepAlwaysAllowedDomains,
  localSettingsFile
} from './alwaysAllow'
