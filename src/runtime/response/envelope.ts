/** A token of the global `response.shape`: which envelope value a renamed field holds. */
export type ShapeToken = '{success}' | '{data}' | '{message}'

/** Global envelope renaming: new field name → token, e.g. `{ ok: '{success}', result: '{data}' }`. */
export type ResponseShape = Readonly<Record<string, ShapeToken>>

/** The error envelope's `error` field. */
export interface ErrorBody {
  readonly code: string
  readonly message: string
  readonly details: unknown
}

/** The compiled global shape: builds frozen success and error envelopes. */
export interface CompiledShape {
  success(data: unknown, message: string): Readonly<Record<string, unknown>>
  error(code: string, message: string, details: unknown): Readonly<Record<string, unknown>>
}

const tokens: Record<ShapeToken, 'success' | 'data' | 'message'> = {
  '{success}': 'success',
  '{data}': 'data',
  '{message}': 'message',
}

function errorBody(code: string, message: string, details: unknown): ErrorBody {
  return Object.freeze({ code, message, details: details === undefined ? null : details })
}

/** The default envelope, as object literals (one hidden class each). */
export const defaultShape: CompiledShape = Object.freeze({
  success: (data: unknown, message: string) => Object.freeze({ success: true, message, data }),
  error: (code: string, message: string, details: unknown) =>
    Object.freeze({ success: false, message, error: errorBody(code, message, details) }),
})

/**
 * Compiles `response.shape`; throws at mount time on a value that is not a token.
 * Error envelopes keep the renamed `{success}` and `{message}` fields and the `error` object.
 */
export function compileShape(shape: ResponseShape | undefined): CompiledShape {
  if (shape === undefined) return defaultShape
  const fields: Array<readonly [string, 'success' | 'data' | 'message']> = []
  for (const [name, token] of Object.entries(shape)) {
    const kind = tokens[token]
    if (kind === undefined) {
      throw new TypeError(
        `shapeguard: response.shape.${name} must be one of {success}, {data}, {message}; got ${JSON.stringify(token)}`,
      )
    }
    fields.push([name, kind])
  }
  const errorFields = fields.filter(([, kind]) => kind !== 'data')
  return Object.freeze({
    success(data: unknown, message: string) {
      const out: Record<string, unknown> = {}
      for (const [name, kind] of fields) {
        out[name] = kind === 'success' ? true : kind === 'message' ? message : data
      }
      return Object.freeze(out)
    },
    error(code: string, message: string, details: unknown) {
      const out: Record<string, unknown> = {}
      for (const [name, kind] of errorFields) out[name] = kind === 'success' ? false : message
      out.error = errorBody(code, message, details)
      return Object.freeze(out)
    },
  })
}
