import type { SchemaAdapter } from '../../engine/adapter.js'
import type { IRNode } from '../../engine/ir/types.js'
import { each, type Visitor, visitSome, wrapperKinds } from '../../engine/ir/visit.js'

/**
 * The query keys a route's query schema declares as arrays, found once at definition: from the
 * IR when the adapter has one, else from the schema's Standard JSON Schema, else none.
 */
export function queryArrayKeys(adapter: SchemaAdapter | undefined): ReadonlySet<string> {
  if (adapter === undefined) return new Set()
  return adapter.ir === undefined ? arrayKeysOfStandard(adapter.schema) : arrayKeysOf(adapter.ir)
}

/**
 * The query keys a schema declares as arrays (repeated keys allowed for them):
 * object properties whose node, through optional/nullable/default/readonly wrappers, pipes and
 * unions, can be an array, tuple or set. Empty when the schema has no IR.
 */
export function arrayKeysOf(ir: IRNode | undefined): ReadonlySet<string> {
  const keys = new Set<string>()
  const root = ir === undefined ? undefined : objectOf(ir, 0)
  if (root !== undefined) {
    for (const p of root.properties) if (canBeArray(p.value, 0)) keys.add(p.key)
  }
  return keys
}

const MAX_UNWRAP = 32

type JsonNode = { type?: unknown; anyOf?: unknown; oneOf?: unknown; properties?: unknown }

/**
 * The array keys of a schema with no IR that publishes its input as JSON Schema (Standard JSON
 * Schema's `~standard.jsonSchema.input`, e.g. ArkType); empty when it publishes none.
 */
export function arrayKeysOfStandard(schema: unknown): ReadonlySet<string> {
  const keys = new Set<string>()
  let json: JsonNode | undefined
  try {
    const std = (schema as { '~standard'?: { jsonSchema?: { input?: (o: object) => unknown } } })[
      '~standard'
    ]
    json = std?.jsonSchema?.input?.({ target: 'draft-2020-12' }) as JsonNode | undefined
  } catch {
    // A schema its library cannot express in JSON Schema: repeated keys stay refused.
    return keys
  }
  const props = json?.properties
  if (typeof props !== 'object' || props === null) return keys
  for (const [key, node] of Object.entries(props)) if (jsonCanBeArray(node, 0)) keys.add(key)
  return keys
}

function jsonCanBeArray(node: unknown, depth: number): boolean {
  if (typeof node !== 'object' || node === null || depth > MAX_UNWRAP) return false
  const n = node as JsonNode
  if (n.type === 'array' || (Array.isArray(n.type) && n.type.includes('array'))) return true
  const options = [n.anyOf, n.oneOf].filter(Array.isArray).flat() as unknown[]
  return options.some((o) => jsonCanBeArray(o, depth + 1))
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
