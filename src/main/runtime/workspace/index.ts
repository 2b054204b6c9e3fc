export * from './context'
export * from './demoWorkspace'
export * from './resources'
export * from './systemPrompt'
