import type { Request } from 'express'
import type { IRNode } from '../engine/ir.js'

/**
 * Whether the request carries a body on the wire (Content-Length above zero, or chunked), as the
 * body parsers decide. Express 4's parser leaves `{}` on a request without one; Express 5 leaves
 * `undefined`: both count as a missing body.
 */
export function hasBodyOnWire(req: Request): boolean {
  const headers = req.headers
  if (headers['transfer-encoding'] !== undefined) return true
  const length = headers['content-length']
  return length !== undefined && length !== '0' && length !== ''
}

/** The body as the schema should see it: `undefined` when the client sent none. */
export function bodyInput(req: Request): unknown {
  const body = req.body
  if (body === undefined || body === null || typeof body !== 'object') return body
  if (hasBodyOnWire(req)) return body
  for (const _ in body) return body
  return Array.isArray(body) ? body : undefined
}

/**
 * Makes `value` the request's `query`: Express 5 defines `req.query` as a getter on the prototype,
 * so an own data property shadows it there (API.md decision 7); Express 4's own property is written.
 */
export function setQuery(req: Request, value: unknown): void {
  if (Object.hasOwn(req, 'query')) {
    ;(req as { query: unknown }).query = value
    return
  }
  Object.defineProperty(req, 'query', {
    value,
    writable: true,
    configurable: true,
    enumerable: true,
  })
}

/**
 * A copy of a parsed request value with every string trimmed and/or lower-cased
 * (`validation.strings`). Depth is bounded by the guards (body) and the query parser (query).
 */
export function normaliseStrings(value: unknown, trim: boolean, lowercase: boolean): unknown {
  if (typeof value === 'string') {
    const t = trim ? value.trim() : value
    return lowercase ? t.toLowerCase() : t
  }
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map((v) => normaliseStrings(v, trim, lowercase))
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return value
  const out: Record<string, unknown> = proto === null ? Object.create(null) : {}
  for (const key of Object.keys(value)) {
    // The guards reject `__proto__` in bodies; never let an assignment reach the prototype.
    if (key === '__proto__') continue
    out[key] = normaliseStrings((value as Record<string, unknown>)[key], trim, lowercase)
  }
  return out
}

/**
 * The query keys a schema declares as arrays (repeated keys allowed for them, API.md decision 4):
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

function objectOf(node: IRNode, depth: number): Extract<IRNode, { kind: 'object' }> | undefined {
  if (depth > MAX_UNWRAP) return undefined
  switch (node.kind) {
    case 'object':
      return node
    case 'optional':
    case 'nullable':
    case 'readonly':
    case 'default':
      return objectOf(node.inner, depth + 1)
    case 'pipe':
      return objectOf(node.in, depth + 1) ?? objectOf(node.out, depth + 1)
    case 'recursive':
      return objectOf(node.node, depth + 1)
    case 'native':
      return node.inner === undefined ? undefined : objectOf(node.inner, depth + 1)
    default:
      return undefined
  }
}

function canBeArray(node: IRNode, depth: number): boolean {
  if (depth > MAX_UNWRAP) return false
  switch (node.kind) {
    case 'array':
    case 'tuple':
    case 'set':
      return true
    case 'optional':
    case 'nullable':
    case 'readonly':
    case 'default':
      return canBeArray(node.inner, depth + 1)
    case 'pipe':
      return canBeArray(node.in, depth + 1) || canBeArray(node.out, depth + 1)
    case 'union':
      return node.options.some((o) => canBeArray(o, depth + 1))
    case 'intersection':
      return canBeArray(node.left, depth + 1) || canBeArray(node.right, depth + 1)
    case 'native':
      return node.inner !== undefined && canBeArray(node.inner, depth + 1)
    default:
      return false
  }
}
