export * from './types'
export * from './ports'
export * from './files/fileState'
export * from './registry'
export { ReadTool } from './files/read'
export { WriteTool } from './files/write'
export { EditTool } from './files/edit'
export { GlobTool } from './files/glob'
export { GrepTool } from './files/grep'
export { BashTool } from './shell/bash'
export { BashOutputTool } from './shell/bashOutput'
export { KillShellTool } from './shell/killShell'
export { NotebookEditTool } from './files/notebookEdit'
export { AgentTool, type AgentInput } from './agents/agentTool'
export {
  createSendMessageTool,
  SendMessageInputSchema,
  SendMessageTool,
  type SendMessageInput,
  type SendMessagePort
} from './agents/sendMessageTool'
export { TaskStopTool } from './agents/taskStopTool'
export { createExitPlanModeTool } from './plan/exitPlanMode'
export {
  LEADER_TEAM_TOOLS,
  TaskCreateTool,
  TaskGetTool,
  TaskListTool,
  TaskUpdateTool,
  TeamCreateTool,
  TeamDeleteTool,
  bindTeamContext,
  sendToTeam,
  type TeamMessageInput
} from './team'
