export * from './headless'
export * from './permissionGate'
export * from './session'
