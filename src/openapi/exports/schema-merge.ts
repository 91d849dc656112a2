import { isObject } from '../../shared/is-object.js'
import { entries, type Json, own, ownArray, ownString, resolvePointer, setOwn } from './document.js'

/** What a schema stands for after its `$ref`s and `allOf`s are folded into one object. */
export type Flat = Json | 'never' | 'cycle'

/** The shared state of one example: the document, the `$ref`s being followed, the work left. */
export interface SampleContext {
  readonly doc: unknown
  readonly refs: string[]
  /** Schemas visited so far; past `maxWork` every schema counts as a cycle, so work is bounded. */
  work: number
}

export const maxWork = 50_000

const maxFold = 32

const lowest = ['minimum', 'minLength', 'minItems', 'minProperties', 'multipleOf']
const highest = ['maximum', 'maxLength', 'maxItems', 'maxProperties']

function typesOf(schema: Json): string[] | undefined {
  const type = own(schema, 'type')
  if (typeof type === 'string') return [type]
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string')
  return undefined
}

function intersectTypes(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  if (a === undefined) return b
  if (b === undefined) return a
  const out: string[] = []
  for (const t of a) {
    if (b.includes(t)) out.push(t)
    else if (t === 'integer' && b.includes('number')) out.push('integer')
    else if (t === 'number' && b.includes('integer')) out.push('integer')
  }
  return out
}

/** Folds `b` into `a` as allOf would: both sets of constraints, approximately (see README). */
export function mergeInto(a: Json, b: Json): Json {
  const out: Json = {}
  for (const [key, value] of entries(a)) setOwn(out, key, value)
  for (const [key, value] of entries(b)) {
    if (!Object.hasOwn(out, key)) {
      setOwn(out, key, value)
      continue
    }
    const mine = out[key]
    if (key === 'properties' && isObject(mine) && isObject(value)) {
      const props: Json = {}
      for (const [name, schema] of entries(mine)) setOwn(props, name, schema)
      for (const [name, schema] of entries(value)) {
        setOwn(props, name, Object.hasOwn(props, name) ? { allOf: [props[name], schema] } : schema)
      }
      setOwn(out, key, props)
    } else if (key === 'required') {
      setOwn(out, key, [...new Set([...ownArray(a, key), ...ownArray(b, key)])])
    } else if (lowest.includes(key) && typeof mine === 'number' && typeof value === 'number') {
      setOwn(out, key, Math.max(mine, value))
    } else if (highest.includes(key) && typeof mine === 'number' && typeof value === 'number') {
      setOwn(out, key, Math.min(mine, value))
    } else if (key === 'enum' && Array.isArray(mine) && Array.isArray(value)) {
      const other = value.map((v) => JSON.stringify(v))
      setOwn(
        out,
        key,
        mine.filter((v) => other.includes(JSON.stringify(v))),
      )
    } else if (key === 'additionalProperties' && (mine === false || value === false)) {
      setOwn(out, key, false)
    } else if (
      (key === 'items' || key === 'additionalProperties') &&
      isObject(mine) &&
      isObject(value)
    ) {
      setOwn(out, key, { allOf: [mine, value] })
    } else if (key === 'type') {
      setOwn(out, key, intersectTypes(typesOf(a), typesOf(b)) ?? [])
    } else if (key === 'nullable') {
      setOwn(out, key, mine === true && value === true)
    }
    // Any other keyword keeps the first value (two patterns or formats: the first wins).
  }
  return out
}

/**
 * Follows `$ref` (with its siblings, as 3.1 reads them) and folds `allOf` into one schema; the
 * references it followed are added to `followed`. `cycle` when a reference is already being
 * followed (by an enclosing schema or this fold), `never` for `false` or `not: {}`.
 */
export function flatten(
  schema: unknown,
  ctx: SampleContext,
  followed: string[],
  held: readonly string[] = [],
): Flat {
  if (schema === true || schema === undefined) return {}
  if (schema === false) return 'never'
  if (!isObject(schema)) return {}
  if (held.length > maxFold || ++ctx.work > maxWork) return 'cycle'
  let base: Json = schema
  let chain = held
  const ref = ownString(schema, '$ref')
  if (ref !== undefined) {
    if (ctx.refs.includes(ref) || held.includes(ref)) return 'cycle'
    chain = [...held, ref]
    followed.push(ref)
    const target = flatten(resolvePointer(ctx.doc, ref), ctx, followed, chain)
    if (typeof target === 'string') return target
    const siblings: Json = {}
    for (const [key, value] of entries(schema)) if (key !== '$ref') setOwn(siblings, key, value)
    base = mergeInto(target, siblings)
  }
  const not = own(base, 'not')
  if (isObject(not) && Object.keys(not).length === 0) return 'never'
  const allOf = ownArray(base, 'allOf')
  if (allOf.length === 0) return base
  let merged: Json = {}
  for (const [key, value] of entries(base)) if (key !== 'allOf') setOwn(merged, key, value)
  for (const part of allOf.slice(0, 64)) {
    const flat = flatten(part, ctx, followed, chain)
    if (typeof flat === 'string') return flat
    merged = mergeInto(merged, flat)
  }
  return merged
}
