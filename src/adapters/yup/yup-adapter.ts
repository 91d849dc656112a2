import type { AnySchema, InferType } from 'yup'
import { adapterCache, defineAdapter, type SchemaAdapter } from '../../engine/adapter.js'
import type { Result } from '../../engine/result.js'
import { checkKnownKeys } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import { yupParser } from './parse.js'
import { type YupLike, yupToIR } from './to-ir.js'

function isYupSchema(value: unknown): value is YupLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { __isYupSchema__?: unknown }).__isYupSchema__ === true &&
    typeof (value as { validateSync?: unknown }).validateSync === 'function'
  )
}

/** Options of `yupAdapter`. */
export interface YupAdapterOptions {
  /** Remove keys an object schema does not declare, at every depth. @default true */
  readonly stripUnknown?: boolean
}

// One cache per stripUnknown setting: the same schema gives two different adapters.
const caches = { strip: adapterCache(), keep: adapterCache() }

/**
 * Wraps a yup 1 schema as a schema adapter: its IR (casting, defaults and unknown keys reproduced
 * as yup does them) for the compiled fast path and the docs, and yup's own `validateSync` for
 * every rejection (`abortEarly` when only the first error is wanted, as yup does by default).
 * Unknown keys are removed at every depth, as yup's `stripUnknown: true` does; a schema with async
 * tests is validated with `validate`.
 * @param schema a yup schema; the same schema object always gives the same adapter.
 * @param options `stripUnknown` (default true): false keeps unknown keys, as yup does by default.
 * @example const body = yupAdapter(object({ name: string().required().min(2) }))
 */
export function yupAdapter<S extends AnySchema>(
  schema: S,
  options: YupAdapterOptions = {},
): SchemaAdapter<InferType<S>, InferType<S>> {
  if (!isYupSchema(schema as unknown))
    throw optionError('SG_ERR_NOT_A_SCHEMA', 'shapeguard: yupAdapter(): expected a yup 1 schema')
  if (typeof options !== 'object' || options === null) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: yupAdapter(): options must be an object: { stripUnknown? }',
    )
  }
  // A misspelt option (`stripUnkown`) must not be ignored: the schema would keep unknown keys.
  checkKnownKeys(options, ['stripUnknown'], 'yupAdapter()')
  const stripUnknown = options.stripUnknown ?? true
  if (typeof stripUnknown !== 'boolean') {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      'shapeguard: yupAdapter(): stripUnknown must be a boolean',
    )
  }
  const cached = stripUnknown ? caches.strip : caches.keep
  return cached(schema, () => {
    const adapter = defineAdapter<InferType<S>, InferType<S>>({
      library: 'yup',
      schema,
      ir: yupToIR(schema as unknown as YupLike, stripUnknown),
      async: false,
      parse: yupParser(schema, stripUnknown) as (
        input: unknown,
        allErrors?: boolean,
      ) => Result<InferType<S>> | Promise<Result<InferType<S>>>,
    })
    return adapter
  })
}

export { isYupSchema }
