import { isPlainObject } from '../../shared/is-object.js'

/** The result of merging the outputs of an intersection's two sides. */
export type MergeResult = { valid: true; data: unknown } | { valid: false }

/**
 * Deep-merges two outputs the way zod's intersection does: equal values, equal dates, plain
 * objects key by key (left keys first), arrays of equal length item by item; anything else fails.
 */
export function mergeValues(a: unknown, b: unknown): MergeResult {
  if (a === b) return { valid: true, data: a }
  if (a instanceof Date && b instanceof Date && +a === +b) return { valid: true, data: a }
  if (isPlainObject(a) && isPlainObject(b)) {
    const out: Record<string, unknown> = { ...a, ...b }
    if (Object.hasOwn(out, '__proto__')) Reflect.deleteProperty(out, '__proto__')
    for (const key of Object.keys(a)) {
      if (key === '__proto__' || !Object.hasOwn(b, key)) continue
      const shared = mergeValues(a[key], b[key])
      if (!shared.valid) return shared
      out[key] = shared.data
    }
    return { valid: true, data: out }
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return { valid: false }
    const out: unknown[] = []
    for (let i = 0; i < a.length; i++) {
      const shared = mergeValues(a[i], b[i])
      if (!shared.valid) return shared
      out.push(shared.data)
    }
    return { valid: true, data: out }
  }
  return { valid: false }
}
