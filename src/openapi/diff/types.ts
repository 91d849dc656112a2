import type { DiffLevel, DiffRule } from './rules.js'

export type { DiffLevel } from './rules.js'

/** One change between two OpenAPI documents, as `diffOpenAPI()` reports it. */
export interface DiffFinding {
  /** `breaking`: a client written against the base can fail; `warning`: it may; `info`: it cannot. */
  readonly level: DiffLevel
  /** The rule's id (`request-property-became-required`); `diffRules` describes each. */
  readonly rule: DiffRule
  /** Which document `pointer` points into: the base for what was removed, else the head. */
  readonly document: 'base' | 'head'
  /** A JSON pointer (RFC 6901) to the changed place, after local `$ref`s are followed. */
  readonly pointer: string
  /** One line: what changed and why it matters, naming paths and keywords, never a value. */
  readonly message: string
  /** The operations (`GET /users/{id}`) the change reaches: a shared schema reaches several. */
  readonly operations: readonly string[]
}
