import type { NativeReason } from '../ir/types.js'

/** A JSON Schema 2020-12 object, usable as an OpenAPI 3.1 schema. */
export type JsonSchema = { [keyword: string]: unknown }

/**
 * A part of a schema documented wider than the library validates it: `reason` is the native node's
 * code (what only the library can run), `detail` the library's name for an unsupported kind.
 */
export interface Widening {
  readonly reason: NativeReason
  readonly detail?: string
}

/** How `toJsonSchema` writes a schema. */
export interface JsonSchemaOptions {
  /** `input`: what a client may send (defaulted fields optional); `output`: what the server returns. */
  readonly io: 'input' | 'output'
  /** Recursive schemas go here instead of the result's own `$defs` (e.g. OpenAPI components). */
  readonly definitions?: Record<string, JsonSchema>
  /** Prefix of `$ref` to a definition; default `#/$defs/` (use `#/components/schemas/` with `definitions`). */
  readonly refPrefix?: string
  /**
   * How a leaf that converts its input is written in input mode: `target` (default) as the type
   * it converts to (what a query string or header value means); `json` (a JSON body) as that
   * type or the strings the library reads as it (`type: ['integer', 'string']` with a `pattern`).
   */
  readonly coercion?: 'target' | 'json'
  /** Called for each node written as the unconstrained `{}` because only the library knows it. */
  readonly onWiden?: (widening: Widening) => void
  /** Called when a schema named `id` is written under `name` because another schema holds `id`. */
  readonly onRename?: (id: string, name: string) => void
}
