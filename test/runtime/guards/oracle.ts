import type { GuardLimits } from '../../../src/runtime/guards/limits.js'

// A naive, independent statement of the guard rules for the property tests: recursion without
// care for speed, code points through Array.from, removal through a Set of code points.

const removed = new Set([
  0x0000, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066,
  0x2067, 0x2068, 0x2069,
])

export function strip(s: string): string {
  return Array.from(s)
    .filter((c) => !removed.has(c.codePointAt(0)!))
    .join('')
}

const chars = (s: string) => Array.from(s).length

export type Expected = { code: string } | { value: unknown }

interface Found {
  proto: boolean
  deep: boolean
  wide: boolean
  long: boolean
}

function visit(v: unknown, level: number, limits: GuardLimits, found: Found): void {
  if (typeof v === 'string') {
    if (chars(v) > limits.maxStringLength) found.long = true
    return
  }
  if (v === null || typeof v !== 'object') return
  if (level > limits.maxDepth) {
    found.deep = true
    return
  }
  if (Array.isArray(v)) {
    if (v.length > limits.maxArrayLength) found.wide = true
    for (const item of v) visit(item, level + 1, limits, found)
    return
  }
  for (const k of Object.keys(v)) {
    if (k === '__proto__' || strip(k) === '__proto__') found.proto = true
    if (chars(k) > limits.maxStringLength) found.long = true
    visit((v as Record<string, unknown>)[k], level + 1, limits, found)
  }
}

export function clean(v: unknown): unknown {
  if (typeof v === 'string') return strip(v)
  if (Array.isArray(v)) return v.map(clean)
  if (v === null || typeof v !== 'object') return v
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(v)) {
    const key = strip(k)
    if (key === 'constructor' || key === 'prototype') continue
    Object.defineProperty(out, key, {
      value: clean((v as Record<string, unknown>)[k]),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return out
}

function limitCode(found: Found): string | undefined {
  if (found.deep) return 'BODY_TOO_DEEP'
  if (found.wide) return 'BODY_ARRAY_TOO_LARGE'
  if (found.long) return 'STRING_TOO_LONG'
  return undefined
}

/** What guardBody must answer: a code, or the cleaned body. */
export function expectedBody(body: unknown, limits: GuardLimits): Expected {
  const found: Found = { proto: false, deep: false, wide: false, long: false }
  visit(body, 1, limits, found)
  if (found.proto) return { code: 'PROTO_POLLUTION' }
  const code = limitCode(found)
  return code === undefined ? { value: clean(body) } : { code }
}

/** What guardQuery must answer under `limits`, with the repeated parameter's name. */
export function expectedQuery(
  query: Record<string, unknown>,
  arrayKeys: ReadonlySet<string>,
  limits: GuardLimits,
): Expected & { param?: string } {
  const found: Found = { proto: false, deep: false, wide: false, long: false }
  visit(query, 1, limits, found)
  if (found.proto) return { code: 'PROTO_POLLUTION' }
  const keys = Object.keys(query)
  const names = keys.map(strip)
  for (let i = 0; i < keys.length; i++) {
    const name = names[i]!
    if (name === 'constructor' || name === 'prototype') continue
    const shared = names.filter((n) => n === name).length > 1
    const array = Array.isArray(query[keys[i]!]) && !arrayKeys.has(name)
    if (shared || array) return { code: 'PARAM_POLLUTION', param: name }
  }
  const code = limitCode(found)
  return code === undefined ? { value: clean(query) } : { code }
}
