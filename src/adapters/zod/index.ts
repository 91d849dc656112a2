export { isZodSchema, zodAdapter } from './zod-adapter.js'
