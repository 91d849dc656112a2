export { isStandardSchema, standardAdapter } from './standard-adapter.js'
export type * from './standard-schema.js'
