export * from './define'
export * from './schemas'
export * from './operations'
export * from './client'
