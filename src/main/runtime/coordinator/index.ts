export * from './prompt'
