import { isObject } from '../../shared/is-object.js'

// Readers for an OpenAPI document that is untrusted input: every field may be missing, of the
// wrong type, or named `__proto__`. Nothing here throws on a malformed document, and every map
// lookup reads own properties only, so `$ref: '#/components/schemas/constructor'` finds nothing.

/** A JSON object read from the document (never an array). */
export type Json = Record<string, unknown>

/** The own property `key` of `value`, when `value` is an object. */
export function own(value: unknown, key: string): unknown {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined
}

export function ownObject(value: unknown, key: string): Json | undefined {
  const found = own(value, key)
  return isObject(found) ? found : undefined
}

export function ownString(value: unknown, key: string): string | undefined {
  const found = own(value, key)
  return typeof found === 'string' ? found : undefined
}

export function ownArray(value: unknown, key: string): unknown[] {
  const found = own(value, key)
  return Array.isArray(found) ? found : []
}

export function ownNumber(value: unknown, key: string): number | undefined {
  const found = own(value, key)
  return typeof found === 'number' && Number.isFinite(found) ? found : undefined
}

/** The own entries of an object, in document order. */
export function entries(value: unknown): Array<[string, unknown]> {
  return isObject(value) ? Object.entries(value) : []
}

/** Sets `key` as an own, enumerable property even when it is `__proto__`. */
export function setOwn(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  })
}

function decodePointerToken(token: string): string | undefined {
  try {
    return decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~')
  } catch {
    return undefined
  }
}

/**
 * Resolves a local `$ref` (`#/components/schemas/User`) in `doc`; any other reference (another
 * file, a URL) or a pointer that leads nowhere gives `undefined`.
 */
export function resolvePointer(doc: unknown, ref: string): unknown {
  if (ref === '#') return doc
  if (!ref.startsWith('#/')) return undefined
  let node: unknown = doc
  for (const raw of ref.slice(2).split('/')) {
    const token = decodePointerToken(raw)
    if (token === undefined) return undefined
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d{0,8})$/.test(token)) return undefined
      node = node[Number(token)]
    } else if (isObject(node) && Object.hasOwn(node, token)) {
      node = node[token]
    } else {
      return undefined
    }
  }
  return node
}

/**
 * Follows a chain of `$ref`s (parameters, request bodies, security schemes) to the object it
 * names, at most `limit` hops, so a reference cycle ends; `undefined` when it leads nowhere.
 */
export function deref(doc: unknown, value: unknown, limit = 16): Json | undefined {
  let node = value
  for (let hop = 0; hop <= limit; hop++) {
    const ref = ownString(node, '$ref')
    if (ref === undefined) return isObject(node) ? node : undefined
    node = resolvePointer(doc, ref)
  }
  return undefined
}
