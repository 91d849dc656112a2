// The two object tests every layer uses. Which one a caller needs matters: `isPlainObject` is the
// one to use before copying or merging keys, where a class instance (a Date, a Map, a schema) must
// not pass for a bag of fields.

/** A non-null object that is not an array: something whose own keys can be read as fields. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * An object literal, `JSON.parse` output or `Object.create(null)`: an object whose prototype is
 * `Object.prototype` or null (never an array, a class instance or a boxed value).
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}
