import type { SchemaAdapter } from '../../engine/adapter.js'
import type { IRNode } from '../../engine/ir/types.js'
import { each, type Visitor, visitSome, wrapperKinds } from '../../engine/ir/visit.js'

/** The top-level keys of a query schema that take arrays. */
export interface QueryArrayKeys {
  /** Keys whose value can be an array: they may be repeated (no `PARAM_POLLUTION`). */
  readonly repeatable: ReadonlySet<string>
  /**
   * Keys whose value must be an array (a subset): a single value is a one-element array. A key
   * that also takes a scalar (`string | string[]`, a preprocess) keeps the value as it came.
   */
  readonly lists: ReadonlySet<string>
}

const none: QueryArrayKeys = { repeatable: new Set(), lists: new Set() }

/**
 * The array keys of a route's query schema, found once at definition: from the IR when the
 * adapter has one, else from the schema's Standard JSON Schema, else none.
 */
export function queryArrayKeys(adapter: SchemaAdapter | undefined): QueryArrayKeys {
  if (adapter === undefined) return none
  return adapter.ir === undefined ? arrayKeysOfStandard(adapter.schema) : arrayKeysOf(adapter.ir)
}

/**
 * The query with each single value of a list key made a one-element array (`?ids=5` gives
 * `['5']`, as `?ids=5&ids=6` gives two); every other value as it came. Changes `query` in place.
 * @example listSingles({ ids: '5', q: 'a' }, new Set(['ids'])) // → { ids: ['5'], q: 'a' }
 */
export function listSingles(query: unknown, lists: ReadonlySet<string>): unknown {
  if (lists.size === 0 || typeof query !== 'object' || query === null) return query
  const o = query as Record<string, unknown>
  for (const key of lists)
    if (typeof o[key] === 'string' && Object.hasOwn(o, key)) o[key] = [o[key]]
  return query
}

/**
 * The array keys of a schema's IR: object properties whose node, through optional, nullable,
 * default and readonly wrappers, pipes and unions, can be an array, tuple or set (repeatable), and
 * those that take nothing else (lists). None when the schema has no IR or is not an object.
 */
export function arrayKeysOf(ir: IRNode | undefined): QueryArrayKeys {
  const root = ir === undefined ? undefined : objectOf(ir, 0)
  if (root === undefined) return none
  const keys = { repeatable: new Set<string>(), lists: new Set<string>() }
  for (const p of root.properties) {
    if (canBeArray(p.value, 0)) keys.repeatable.add(p.key)
    if (onlyArrays(p.value, 0)) keys.lists.add(p.key)
  }
  return keys
}

const MAX_UNWRAP = 32

type JsonNode = { type?: unknown; anyOf?: unknown; oneOf?: unknown; properties?: unknown }

/**
 * The array keys of a schema with no IR that publishes its input as JSON Schema (Standard JSON
 * Schema's `~standard.jsonSchema.input`, e.g. ArkType); none when it publishes none.
 */
export function arrayKeysOfStandard(schema: unknown): QueryArrayKeys {
  let json: JsonNode | undefined
  try {
    const std = (schema as { '~standard'?: { jsonSchema?: { input?: (o: object) => unknown } } })[
      '~standard'
    ]
    json = std?.jsonSchema?.input?.({ target: 'draft-2020-12' }) as JsonNode | undefined
  } catch {
    // A schema its library cannot express in JSON Schema: repeated keys stay refused.
    return none
  }
  const props = json?.properties
  if (typeof props !== 'object' || props === null) return none
  const keys = { repeatable: new Set<string>(), lists: new Set<string>() }
  for (const [key, node] of Object.entries(props)) {
    if (jsonArrays(node, 'some', 0)) keys.repeatable.add(key)
    if (jsonArrays(node, 'only', 0)) keys.lists.add(key)
  }
  return keys
}

// Whether a JSON Schema node takes some array ('some'), or arrays and nothing a query value can be
// ('only': null aside).
function jsonArrays(node: unknown, mode: 'some' | 'only', depth: number): boolean {
  if (typeof node !== 'object' || node === null || depth > MAX_UNWRAP) return false
  const { type, anyOf, oneOf } = node as JsonNode
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type]
  const options = [anyOf, oneOf].filter(Array.isArray).flat() as unknown[]
  if (mode === 'some')
    return types.includes('array') || options.some((o) => jsonArrays(o, mode, depth + 1))
  if (types.length > 0)
    return types.includes('array') && types.every((t) => t === 'array' || t === 'null')
  const isNull = (o: unknown) => (o as JsonNode | null)?.type === 'null'
  return (
    options.some((o) => jsonArrays(o, mode, depth + 1)) &&
    options.every((o) => isNull(o) || jsonArrays(o, mode, depth + 1))
  )
}

type IRObject = Extract<IRNode, { kind: 'object' }>

const objectThrough: Partial<Visitor<IRObject | undefined, number>> = {
  object: (n) => n,
  ...each(wrapperKinds, (n, depth) => objectOf(n.inner, depth + 1)),
  pipe: (n, depth) => objectOf(n.in, depth + 1) ?? objectOf(n.out, depth + 1),
  recursive: (n, depth) => objectOf(n.node, depth + 1),
  native: (n, depth) => (n.inner === undefined ? undefined : objectOf(n.inner, depth + 1)),
}

function objectOf(node: IRNode, depth: number): IRObject | undefined {
  return depth > MAX_UNWRAP ? undefined : visitSome(node, objectThrough, () => undefined, depth)
}

const arrayThrough: Partial<Visitor<boolean, number>> = {
  ...each(['array', 'tuple', 'set'], () => true),
  ...each(wrapperKinds, (n, depth) => canBeArray(n.inner, depth + 1)),
  pipe: (n, depth) => canBeArray(n.in, depth + 1) || canBeArray(n.out, depth + 1),
  union: (n, depth) => n.options.some((o) => canBeArray(o, depth + 1)),
  intersection: (n, depth) => canBeArray(n.left, depth + 1) || canBeArray(n.right, depth + 1),
  native: (n, depth) => n.inner !== undefined && canBeArray(n.inner, depth + 1),
}

function canBeArray(node: IRNode, depth: number): boolean {
  return depth <= MAX_UNWRAP && visitSome(node, arrayThrough, () => false, depth)
}

// What a query value never is: an option of these kinds takes no single value.
const noValue = new Set<IRNode['kind']>(['null', 'undefined', 'never'])

// The input side only: a pipe's `in`; a preprocess (user code) sees the value as it came.
const onlyArraysThrough: Partial<Visitor<boolean, number>> = {
  ...each(['array', 'tuple', 'set'], () => true),
  ...each(wrapperKinds, (n, depth) => onlyArrays(n.inner, depth + 1)),
  pipe: (n, depth) => onlyArrays(n.in, depth + 1),
  union: (n, depth) =>
    n.options.some((o) => onlyArrays(o, depth + 1)) &&
    n.options.every((o) => noValue.has(o.kind) || onlyArrays(o, depth + 1)),
  intersection: (n, depth) => onlyArrays(n.left, depth + 1) || onlyArrays(n.right, depth + 1),
  recursive: (n, depth) => onlyArrays(n.node, depth + 1),
  native: (n, depth) =>
    n.reason !== 'preprocess' && n.inner !== undefined && onlyArrays(n.inner, depth + 1),
}

function onlyArrays(node: IRNode, depth: number): boolean {
  return depth <= MAX_UNWRAP && visitSome(node, onlyArraysThrough, () => false, depth)
}
