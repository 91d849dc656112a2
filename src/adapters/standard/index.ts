export type * from '../../engine/standard-schema.js'
export { isStandardSchema, standardAdapter } from './standard-adapter.js'
