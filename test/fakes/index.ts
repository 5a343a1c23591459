export { startFakeProviders, rateLimited, failing } from './server'
export type * from './types'
