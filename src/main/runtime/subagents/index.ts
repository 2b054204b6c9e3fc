export * from './ids'
export * from './notification'
export * from './runtime'
export * from './options'
export * from './types'
export { asParent } from './run'
export * from './wiring'
export * from './startupSweep'
export {
  AgentMcp,
  inProcessServers,
  mcpRunConfig,
  withAgentMcp,
  type AgentMcpTools,
  type AgentServerStarter
} from './agentMcp'
