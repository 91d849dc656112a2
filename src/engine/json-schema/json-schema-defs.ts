import type { IRRecursive } from '../ir/types.js'
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

/** The mode each named definition was written in, per definitions map. */
const writtenIn = new WeakMap<Record<string, JsonSchema>, Map<string, 'input' | 'output'>>()

/** Names given to named (`meta.id`) schemas per definitions map and mode. */
const named = new WeakMap<Record<string, JsonSchema>, Map<string, WeakMap<object, string>>>()

/**
 * The first name for a schema named `id` in mode `io` that `fits`: `id` itself, else
 * `<id>Input`/`<id>Output` (the other mode's schema differs), else `<id>2`, `<id>3`, ….
 * Characters outside `A-Za-z0-9._-` become `_` (OpenAPI's component names).
 */
function pickName(id: string, io: 'input' | 'output', fits: (name: string) => boolean): string {
  // `__proto__` as a key would set the definitions map's prototype instead of a definition.
  const base = id.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^__proto__$/, 'proto')
  const mode = `${base}${io === 'input' ? 'Input' : 'Output'}`
  if (fits(base)) return base
  if (fits(mode)) return mode
  let n = 2
  while (!fits(`${base}${n}`)) n++
  return `${base}${n}`
}

/** The free definition name for a recursive schema named `id`, or undefined without an `id`. */
export function preferredName(
  defs: Record<string, JsonSchema>,
  id: string | undefined,
  io: 'input' | 'output',
): string | undefined {
  return id === undefined ? undefined : pickName(id, io, (name) => !Object.hasOwn(defs, name))
}

/**
 * Writes a named schema into `defs` once per node and mode and returns a `$ref` to it: under the
 * first name (see {@link pickName}) that is free or already holds the same definition, so a
 * schema named once and written again (in another route) is shared. `clash` hears of a name that
 * needed a number (two different schemas with one `id`).
 */
export function defineNamed(
  defs: Record<string, JsonSchema>,
  node: object,
  io: 'input' | 'output',
  prefix: string,
  id: string,
  write: () => JsonSchema,
  clash: (id: string, name: string) => void,
): JsonSchema {
  const byMode = named.get(defs) ?? new Map<string, WeakMap<object, string>>()
  named.set(defs, byMode)
  const known = byMode.get(io) ?? new WeakMap<object, string>()
  byMode.set(io, known)
  const hit = known.get(node)
  if (hit !== undefined) return { $ref: prefix + hit }
  const def = write()
  const text = JSON.stringify(def)
  const modes = writtenIn.get(defs) ?? new Map<string, 'input' | 'output'>()
  writtenIn.set(defs, modes)
  const base = pickName(id, io, () => true)
  const modeName = pickName(id, io, (n) => n !== base)
  // `<id>Input`/`<id>Output` is for the same schema's other mode only; any other second name
  // (`<id>2`, …) means two different schemas share the id.
  const name = pickName(
    id,
    io,
    (n) =>
      (!Object.hasOwn(defs, n) || JSON.stringify(defs[n]) === text) &&
      !(n === modeName && modes.get(base) === io),
  )
  if (name !== base && name !== modeName) clash(id, name)
  modes.set(name, io)
  defs[name] = def
  known.set(node, name)
  return { $ref: prefix + name }
}
