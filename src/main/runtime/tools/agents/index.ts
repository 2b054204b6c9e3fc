export * from './agentTool'
export * from './sendMessageTool'
export * from './taskStopTool'
