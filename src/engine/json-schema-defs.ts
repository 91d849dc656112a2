import type { IRRecursive } from './ir/types.js'
import type { JsonSchema } from './json-schema-types.js'

/**
 * Definition names given so far, per definitions map: each recursive IR node gets the first free
 * `SchemaN` of the map it is written into, so schemas sharing one map (an OpenAPI document's
 * components) never overwrite each other's definitions, and the same schema written twice into
 * one map reuses its definition.
 */
const names = new WeakMap<Record<string, JsonSchema>, WeakMap<IRRecursive, string>>()

export function namesOf(defs: Record<string, JsonSchema>): WeakMap<IRRecursive, string> {
  const known = names.get(defs) ?? new WeakMap<IRRecursive, string>()
  names.set(defs, known)
  return known
}

export function freeName(defs: Record<string, JsonSchema>): string {
  let n = 1
  while (`Schema${n}` in defs) n++
  return `Schema${n}`
}

/** A definition's text with its references to itself made anonymous, to compare definitions. */
export const canonical = (def: JsonSchema, ref: string) =>
  JSON.stringify(def).replaceAll(JSON.stringify(ref), '"#self"')
