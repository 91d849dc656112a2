import { type GuardedPart, protoPollution, Violation } from './guard-errors.js'
import type { GuardLimits } from './limits.js'
import { hasHostileChars, isTooLong, sanitizeString } from './sanitize.js'

/** The state of one walk over one request part; created per request, read on every node. */
export interface Walk {
  readonly part: GuardedPart
  readonly maxDepth: number
  readonly maxArrayLength: number
  readonly maxStringLength: number
  /** The highest-precedence limit broken so far. */
  worst: Violation
}

export function startWalk(part: GuardedPart, limits: GuardLimits): Walk {
  return {
    part,
    maxDepth: limits.maxDepth,
    maxArrayLength: limits.maxArrayLength,
    maxStringLength: limits.maxStringLength,
    worst: Violation.none,
  }
}

function found(w: Walk, violation: Violation): void {
  if (violation > w.worst) w.worst = violation
}

/**
 * Checks `value` (at `level` if it is an object or array) and returns it cleaned. Limits are
 * checked on the value as received; once one is broken nothing is cleaned any more (the request
 * is rejected) but the walk goes on, because a `__proto__` key or a higher-precedence limit may
 * still come. Objects and arrays nested past `maxDepth` are never entered.
 */
export function walkValue(value: unknown, level: number, w: Walk): unknown {
  if (typeof value === 'string') return walkString(value, w)
  if (typeof value !== 'object' || value === null) return value
  if (level > w.maxDepth) {
    found(w, Violation.tooDeep)
    return value
  }
  if (Array.isArray(value)) return walkArray(value, level, w)
  const proto = Object.getPrototypeOf(value)
  // Body parsers make plain objects (null-prototype ones for node's querystring); anything else
  // (a Buffer from express.raw, a Date set by earlier middleware) is a value, not a container.
  if (proto !== Object.prototype && proto !== null) return value
  return walkObject(value as Record<string, unknown>, level, w)
}

function walkString(s: string, w: Walk): string {
  if (isTooLong(s, w.maxStringLength)) {
    found(w, Violation.stringTooLong)
    return s
  }
  return w.worst === Violation.none ? sanitizeString(s) : s
}

function walkArray(a: unknown[], level: number, w: Walk): unknown[] {
  if (a.length > w.maxArrayLength) found(w, Violation.arrayTooLarge)
  const next = level + 1
  for (let i = 0; i < a.length; i++) {
    const v = a[i]
    if (typeof v === 'string' || (typeof v === 'object' && v !== null)) {
      const cleaned = walkValue(v, next, w)
      if (cleaned !== v) a[i] = cleaned
    }
  }
  return a
}

// Keys repeat from request to request (the fields of the same few schemas): a key found clean
// once skips the scan next time. Bounded in count and in key length, so hostile keys cannot
// grow it; once full it only stops helping.
const cleanKeys = new Set<string>()
const maxCachedKeys = 4096
const maxCachedKeyLength = 64

/**
 * Checks one key: `__proto__` as received or once sanitised throws; a long key is a string too
 * long. Returns whether the object must be rebuilt (a key to remove or to rename).
 */
export function checkKey(k: string, w: Walk): boolean {
  if (k === '__proto__') throw protoPollution(w.part)
  if (isTooLong(k, w.maxStringLength)) found(w, Violation.stringTooLong)
  if (cleanKeys.has(k)) return false
  if (k === 'constructor' || k === 'prototype') return true
  if (hasHostileChars(k)) {
    if (sanitizeString(k) === '__proto__') throw protoPollution(w.part)
    return true
  }
  if (cleanKeys.size < maxCachedKeys && k.length <= maxCachedKeyLength) cleanKeys.add(k)
  return false
}

function walkObject(o: Record<string, unknown>, level: number, w: Walk): Record<string, unknown> {
  // Object.keys of a fast-mode object is served from its enum cache; for...in would also list
  // enumerable properties someone added to Object.prototype.
  const keys = Object.keys(o)
  const next = level + 1
  let rebuild = false
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!
    if (checkKey(k, w)) rebuild = true
    const v = o[k]
    if (typeof v === 'string' || (typeof v === 'object' && v !== null)) {
      const cleaned = walkValue(v, next, w)
      if (cleaned !== v) o[k] = cleaned
    }
  }
  return rebuild && w.worst === Violation.none ? rebuilt(o, keys) : o
}

/**
 * A copy of `o` without `constructor` and `prototype` keys and with sanitised keys (a later key
 * wins when two become one), in order. A new object rather than `delete`, which would turn `o`
 * into a slow dictionary-mode object for everything that reads the body later.
 */
export function rebuilt(
  o: Record<string, unknown>,
  keys: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = Object.getPrototypeOf(o) === null ? Object.create(null) : {}
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!
    const clean = sanitizeString(k)
    if (clean === 'constructor' || clean === 'prototype') continue
    // `clean` is never `__proto__` (checkKey threw), so this defines an own data property.
    out[clean] = o[k]
  }
  return out
}
