import { parse as parseQuery } from 'node:querystring'
import { sanitizeString } from '../../runtime/guards/sanitize.js'
import { listSingles } from '../../runtime/pipeline/query-array-keys.js'
import { isPlainObject } from '../../shared/is-object.js'

/** A request part a route's schema validates (the cookie slots are parts of the Cookie header). */
export type Part = 'params' | 'query' | 'headers' | 'body' | 'cookies' | 'signedCookies'

/** What the fuzzer sends for one part, or why the value cannot travel in it. */
export type Wire<T> = { readonly ok: true; readonly wire: T } | { readonly ok: false }

const no = { ok: false } as const

/** A value as one text field or parameter carries it, or undefined. */
export const scalar = (v: unknown): string | undefined =>
  typeof v === 'string'
    ? v
    : typeof v === 'number' && Number.isFinite(v)
      ? String(v)
      : typeof v === 'boolean' || typeof v === 'bigint'
        ? String(v)
        : undefined

/** Path parameters as the path segments they fill (never empty, never a dot segment). */
export function paramsWire(value: unknown, names: readonly string[]): Wire<Record<string, string>> {
  if (value !== undefined && !isPlainObject(value)) return no
  const o = (value ?? {}) as Record<string, unknown>
  const out: Record<string, string> = {}
  for (const key of Object.keys(o)) if (!names.includes(key) && o[key] !== undefined) return no
  for (const name of names) {
    const s = o[name] === undefined ? '1' : scalar(o[name])
    if (s === undefined || s === '' || s === '.' || s === '..') return no
    out[name] = s
  }
  return { ok: true, wire: out }
}

/**
 * A query object as a query string, or not representable. Arrays become repeated keys, only for
 * the keys the schema declares as arrays (any other gets 400 PARAM_POLLUTION before validation).
 */
export function queryWire(value: unknown, arrayKeys: ReadonlySet<string>): Wire<string> {
  if (value === undefined) return { ok: true, wire: '' }
  if (!isPlainObject(value)) return no
  const pairs: string[] = []
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue
    if (Array.isArray(v) && !arrayKeys.has(key)) return no
    const values = Array.isArray(v) ? v : [v]
    for (const item of values) {
      const s = scalar(item)
      if (s === undefined) return no
      pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(s)}`)
    }
  }
  return { ok: true, wire: pairs.join('&') }
}

const headerName = /^[!#$%&'*+.^_`|~0-9a-z-]+$/
// Visible ASCII and inner spaces: what node sends as is and reads back unchanged (it trims).
const headerValue = /^[\x20-\x7e]*$/

/** Header values as node sends them, or not representable (odd names, characters, spacing). */
export function headersWire(value: unknown): Wire<Record<string, string>> {
  if (value === undefined) return { ok: true, wire: {} }
  if (!isPlainObject(value)) return no
  const out: Record<string, string> = {}
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue
    const s = scalar(v)
    if (s === undefined || !headerName.test(key) || !headerValue.test(s) || s.trim() !== s)
      return no
    out[key] = s
  }
  return { ok: true, wire: out }
}

/** A body as JSON text; only an object or an array (express.json's strict mode) or no body. */
export function bodyWire(value: unknown): Wire<string | undefined> {
  if (value === undefined) return { ok: true, wire: undefined }
  if (typeof value !== 'object' || value === null) return no
  try {
    const text = JSON.stringify(value)
    return typeof text === 'string' ? { ok: true, wire: text } : no
  } catch {
    return no
  }
}

/** Strings and keys as the pre-parse guards leave them: `constructor` and `prototype` keys removed. */
export function guarded(value: unknown): unknown {
  if (typeof value === 'string') return sanitizeString(value)
  if (Array.isArray(value)) return value.map(guarded)
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    const key = sanitizeString(k)
    if (key !== 'constructor' && key !== 'prototype') out[key] = guarded(v)
  }
  return out
}

/**
 * The query object the server hands the schema for a query string: a single value of a key in
 * `lists` (the keys the schema takes only arrays for) is a one-element array.
 */
export function queryFromWire(query: string, lists: ReadonlySet<string>): Record<string, unknown> {
  return listSingles(guarded({ ...parseQuery(query) }), lists) as Record<string, unknown>
}

/** The body the server hands the schema for JSON text (undefined: none sent). */
export function bodyFromWire(text: string | undefined): unknown {
  return text === undefined ? undefined : guarded(JSON.parse(text))
}
