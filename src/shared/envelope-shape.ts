// The envelope's shape, as `shapeguard({ response: { shape } })` and `withShape()` take it: each
// field of the envelope named with a token of what it holds. Read here once for the runtime (which
// builds the envelopes), generateOpenAPI (which documents them) and the fuzzer (which checks them).

/** A token of the global `response.shape`: which envelope value a renamed field holds. */
export type ShapeToken = '{success}' | '{data}' | '{message}'

/** Global envelope renaming: new field name → token, e.g. `{ ok: '{success}', result: '{data}' }`. */
export type ResponseShape = Readonly<Record<string, ShapeToken>>

/** What a field of an envelope holds: whether the answer succeeded, its message, or its data. */
export type EnvelopeValue = 'success' | 'message' | 'data'

/** One field of an envelope, read from its token. */
export interface EnvelopeField {
  readonly name: string
  readonly holds: EnvelopeValue
  /** The keys a `{data.<path>}` token follows into the data; undefined for the others. */
  readonly path: readonly string[] | undefined
}

/**
 * Why a shape cannot be used: a field named `__proto__` (an assignment would set the envelope's
 * prototype, not a field), or a value that is not a token.
 */
export type ShapeFault =
  | { readonly kind: 'proto' }
  | { readonly kind: 'token'; readonly field: string; readonly token: unknown }

const tokens = new Map<unknown, EnvelopeValue>([
  ['{success}', 'success'],
  ['{message}', 'message'],
  ['{data}', 'data'],
])

const dataPath = /^\{data\.([^{}]+)\}$/

/**
 * The fields of a shape, in its order; `refuse` is called with the first fault and must throw.
 * `dataPaths` also reads `{data.<path>}` (a route's `withShape()`; `response.shape` has none).
 * @example parseShape({ ok: '{success}', id: '{data.user.id}' }, { dataPaths: true }, fail)
 * // → [{ name: 'ok', holds: 'success', path: undefined }, { name: 'id', holds: 'data', path: ['user', 'id'] }]
 */
export function parseShape(
  shape: object,
  { dataPaths }: { readonly dataPaths: boolean },
  refuse: (fault: ShapeFault) => never,
): EnvelopeField[] {
  const fields: EnvelopeField[] = []
  for (const [name, token] of Object.entries(shape)) {
    if (name === '__proto__') refuse({ kind: 'proto' })
    const holds = tokens.get(token)
    if (holds !== undefined) {
      fields.push({ name, holds, path: undefined })
      continue
    }
    const match = dataPaths && typeof token === 'string' ? dataPath.exec(token) : null
    if (match === null) refuse({ kind: 'token', field: name, token })
    fields.push({ name, holds: 'data', path: match[1]!.split('.') })
  }
  return fields
}

/** The names of an envelope's fields, by what they hold. */
export interface EnvelopeNames {
  readonly success: readonly string[]
  readonly message: readonly string[]
  readonly data: readonly string[]
}

const defaultNames: EnvelopeNames = Object.freeze({
  success: Object.freeze(['success']),
  message: Object.freeze(['message']),
  data: Object.freeze(['data']),
})

/**
 * The field names of a `response.shape` the runtime accepted, by what they hold; the default
 * envelope's (`success`, `message`, `data`) without one.
 * @example envelopeNames({ ok: '{success}', result: '{data}' }) // → { success: ['ok'], message: [], data: ['result'] }
 */
export function envelopeNames(shape: Readonly<Record<string, string>> | undefined): EnvelopeNames {
  if (shape === undefined) return defaultNames
  const names = { success: [] as string[], message: [] as string[], data: [] as string[] }
  for (const [name, token] of Object.entries(shape)) {
    const holds = tokens.get(token)
    if (holds !== undefined) names[holds].push(name)
  }
  return names
}
