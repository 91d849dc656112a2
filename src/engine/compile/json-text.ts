// The JSON text of values as JSON.stringify writes it, piece by piece, for the JSON writer.

// What JSON.stringify writes for a value under `key` of its holder. The holder keeps each rule of
// the specification (toJSON called once, with the key; wrapper objects; omitted values) exact; it
// is taken only for values that are neither primitives nor structures the schema declares.
function json(value: unknown, key: string | number): string | undefined {
  const text = JSON.stringify({ [key]: value })
  if (text.length === 2) return undefined
  return text.slice(JSON.stringify(String(key)).length + 2, -1)
}

// A string's JSON text: quotes around it when nothing in it needs an escape (JSON.stringify
// escapes `"`, `\\`, control characters and lone surrogates; any surrogate goes to it here),
// JSON.stringify itself otherwise and for long strings, where its native loop is faster.
/**
 * A string's JSON text, exactly as `JSON.stringify(s)` writes it.
 * @example quote('a"b') // → '"a\\"b"'
 */
export function quote(s: string): string {
  if (s.length > 128) return JSON.stringify(s)
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) {
      return JSON.stringify(s)
    }
  }
  return `"${s}"`
}

// The text of a primitive inline (JSON.stringify's own rules: non-finite numbers are null,
// undefined, functions and symbols are left out), anything else through its holder.
export function value(v: unknown, key: string | number): string | undefined {
  switch (typeof v) {
    case 'string':
      return quote(v)
    case 'number':
      return Number.isFinite(v) ? `${v}` : 'null'
    case 'boolean':
      return v ? 'true' : 'false'
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined
    default:
      return v === null ? 'null' : json(v, key)
  }
}

// Array index keys come first in an object's own keys, in numeric order; the engine itself says
// in which order a built object's keys are written.
export function jsonOrder(keys: readonly string[]): string[] {
  const probe: Record<string, true> = Object.create(null)
  for (const k of keys) probe[k] = true
  return Object.keys(probe)
}
