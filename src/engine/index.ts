export {
  type AdapterSpec,
  defineAdapter,
  type InferInput,
  type InferOutput,
  isAdapter,
  kAdapter,
  type SchemaAdapter,
} from './adapter.js'
export { compile, compileFallbacks, type PartValidator } from './compile/compile.js'
export { type Draft, withSafety } from './ir/safety.js'
export type * from './ir/types.js'
export { type JsonSchema, type JsonSchemaOptions, toJsonSchema } from './json-schema/json-schema.js'
export type { FieldIssue, Issue, RequestPart, Result } from './result.js'
