export {
  type AdapterSpec,
  defineAdapter,
  type InferInput,
  type InferOutput,
  isAdapter,
  kAdapter,
  type SchemaAdapter,
} from './adapter.js'
export { compile, compileFallbacks, type PartValidator } from './compile.js'
export type * from './ir/types.js'
export { type JsonSchema, type JsonSchemaOptions, toJsonSchema } from './json-schema.js'
export type { FieldIssue, Issue, RequestPart, Result } from './result.js'
export { type Draft, withSafety } from './safety.js'
