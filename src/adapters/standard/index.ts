export type * from '../../engine/standard-schema.js'
export {
  isStandardSchema,
  type StandardVendorHooks,
  standardAdapter,
} from './standard-adapter.js'
