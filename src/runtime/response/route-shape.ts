import { type EnvelopeField, parseShape, type ShapeFault } from '../../shared/envelope-shape.js'
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
  const fields = parseShape(shape, { dataPaths: true }, refuse).map(
    (field) => [field.name, getterOf(field), tokenOf(field)] as const,
  )
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

function refuse(fault: ShapeFault): never {
  throw optionError(
    'SG_ERR_ENVELOPE_SHAPE',
    fault.kind === 'proto'
      ? 'shapeguard: withShape(): cannot name a field __proto__'
      : `shapeguard: withShape(): field "${fault.field}" must be {data.<path>}, {data}, {success} or {message}, got ${JSON.stringify(fault.token)}`,
  )
}

// The `{data.<path>}` token a field was given, named when its path finds nothing.
const tokenOf = (field: EnvelopeField) =>
  field.path === undefined ? undefined : `{data.${field.path.join('.')}}`

function getterOf({ holds, path }: EnvelopeField): Getter {
  if (holds === 'success') return () => true
  if (holds === 'message') return (_data, message) => message
  if (path === undefined) return (data) => data
  return (data) => {
    let value: unknown = data
    for (const key of path) {
      if (value === null || typeof value !== 'object') return undefined
      value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined
    }
    return value
  }
}
