/** A JSON Schema 2020-12 object, usable as an OpenAPI 3.1 schema. */
export type JsonSchema = { [keyword: string]: unknown }

/** How `toJsonSchema` writes a schema. */
export interface JsonSchemaOptions {
  /** `input`: what a client may send (defaulted fields optional); `output`: what the server returns. */
  readonly io: 'input' | 'output'
  /** Recursive schemas go here instead of the result's own `$defs` (e.g. OpenAPI components). */
  readonly definitions?: Record<string, JsonSchema>
  /** Prefix of `$ref` to a definition; default `#/$defs/` (use `#/components/schemas/` with `definitions`). */
  readonly refPrefix?: string
}
