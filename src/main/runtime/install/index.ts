export * from './packageRoot'
