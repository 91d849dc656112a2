import { optionError } from '../../shared/error-codes.js'
import type { RouteShape } from '../core/context.js'

/** A per-route envelope: output field → `{data.<path>}`, `{data}`, `{success}` or `{message}`. */
export type RouteShapeMap = Readonly<Record<string, string>>

type Getter = (data: unknown, message: string) => unknown

const rawShape: RouteShape = Object.freeze({ raw: true })

/** Compiles a `withShape()` argument once; throws on a token it does not know. */
export function compileRouteShape(shape: RouteShapeMap | 'raw'): RouteShape {
  if (shape === 'raw') return rawShape
  if (typeof shape !== 'object' || shape === null) {
    throw optionError(
      'SG_ERR_ENVELOPE_SHAPE',
      `shapeguard: withShape(): takes a map of field to token, or 'raw'`,
    )
  }
  const fields: Array<readonly [string, Getter, string | undefined]> = []
  for (const [name, token] of Object.entries(shape)) {
    const getter = compileToken(name, token)
    fields.push([name, getter, token.startsWith('{data.') ? token : undefined])
  }
  return Object.freeze({
    raw: false as const,
    build(data: unknown, message: string, missing: (token: string) => void) {
      const out: Record<string, unknown> = {}
      for (const [name, get, pathToken] of fields) {
        const value = get(data, message)
        if (value === undefined && pathToken !== undefined) missing(pathToken)
        out[name] = value
      }
      return Object.freeze(out)
    },
  })
}

function compileToken(name: string, token: unknown): Getter {
  if (token === '{success}') return () => true
  if (token === '{message}') return (_data, message) => message
  if (token === '{data}') return (data) => data
  const match = typeof token === 'string' ? /^\{data\.([^{}]+)\}$/.exec(token) : null
  if (match === null) {
    throw optionError(
      'SG_ERR_ENVELOPE_SHAPE',
      `shapeguard: withShape(): field "${name}" must be {data.<path>}, {data}, {success} or {message}, got ${JSON.stringify(token)}`,
    )
  }
  const path = match[1]!.split('.')
  return (data) => {
    let value: unknown = data
    for (const key of path) {
      if (value === null || typeof value !== 'object') return undefined
      value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined
    }
    return value
  }
}
