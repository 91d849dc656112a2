import type { IRNode } from './ir/types.js'
import type { Result } from './result.js'
import type { StandardSchemaV1 } from './standard-schema.js'

/** Brand of every schema adapter (`Symbol.for`, so two copies of the package agree). */
export const kAdapter: unique symbol = Symbol.for('shapeguard.adapter') as never

/**
 * A schema of any library, seen through one interface. The library stays the authority: `parse`
 * is its own parser (issues normalised, its messages kept); `ir` is its translation for the
 * compiled fast path and the docs, or undefined when only `parse` can be trusted.
 */
export interface SchemaAdapter<Input = unknown, Output = Input> {
  readonly [kAdapter]: true
  /** The library's name: `zod`, `valibot`, `yup`, `standard-schema`. */
  readonly library: string
  /** The library's schema object; compiled validators are cached by it. */
  readonly schema: unknown
  /** The schema as IR, or undefined when it can only be run natively. */
  readonly ir: IRNode | undefined
  /** True when `parse` always returns a promise (the schema has async checks). */
  readonly async: boolean
  /**
   * Runs the library's own parser; returns a promise only for async schemas. `allErrors: false`
   * is a hint that only the first issue will be read (a library may then stop early, e.g.
   * valibot's `abortEarly`); every issue is returned when it is true or absent.
   */
  parse(input: unknown, allErrors?: boolean): Result<Output> | Promise<Result<Output>>
  /** Phantom types, never set at run time: what the schema accepts and what it produces. */
  readonly '~types'?: { readonly input: Input; readonly output: Output }
}

/** The type a schema adapter accepts (e.g. what a client sends). */
export type InferInput<A> = A extends SchemaAdapter<infer I, unknown> ? I : never

/** The type a schema adapter produces (e.g. `req.body` after validation). */
export type InferOutput<A> = A extends SchemaAdapter<unknown, infer O> ? O : never

/** Anything accepted where a schema is: a zod schema, an adapter, a Standard Schema. */
export type Schema = SchemaAdapter<any, any> | StandardSchemaV1<any, any>

type StandardTypes<S> = S extends { readonly '~standard': { readonly types?: infer T } }
  ? NonNullable<T>
  : never

/** What a schema accepts (the type a client sends, or a handler passes to `res.ok`). */
export type SchemaInput<S> =
  S extends SchemaAdapter<any, any>
    ? InferInput<S>
    : StandardTypes<S> extends { readonly input: infer I }
      ? I
      : unknown

/** What a schema produces (the type of `req.body` after validation). */
export type SchemaOutput<S> =
  S extends SchemaAdapter<any, any>
    ? InferOutput<S>
    : StandardTypes<S> extends { readonly output: infer O }
      ? O
      : unknown

/** Whether a value is a schema adapter (checks the brand, never `instanceof`). */
export function isAdapter(value: unknown): value is SchemaAdapter {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [kAdapter]?: unknown })[kAdapter] === true
  )
}

/** The parts an adapter implementation supplies; `defineAdapter` adds the brand. */
export type AdapterSpec<Input, Output> = Omit<
  SchemaAdapter<Input, Output>,
  typeof kAdapter | '~types'
>

/**
 * Builds a branded, frozen schema adapter from its parts.
 * @example defineAdapter({ library: 'mylib', schema, ir: undefined, async: false, parse })
 */
export function defineAdapter<Input, Output>(
  spec: AdapterSpec<Input, Output>,
): SchemaAdapter<Input, Output> {
  return Object.freeze({ [kAdapter]: true as const, ...spec })
}

/** Memoises an adapter factory by schema object: see {@link adapterCache}. */
export type AdapterCache = <Input, Output>(
  schema: object,
  make: () => SchemaAdapter<Input, Output>,
) => SchemaAdapter<Input, Output>

/**
 * One adapter per schema object, made on its first use: the same schema always gives the same
 * adapter, so the validators compiled for it are shared. Held weakly: a schema dropped by its
 * owner takes its adapter along.
 * @example const cached = adapterCache(); cached(schema, () => defineAdapter({ … }))
 */
export function adapterCache(): AdapterCache {
  const adapters = new WeakMap<object, SchemaAdapter<never, never>>()
  return <Input, Output>(schema: object, make: () => SchemaAdapter<Input, Output>) => {
    const known = adapters.get(schema) as SchemaAdapter<Input, Output> | undefined
    if (known !== undefined) return known
    const made = make()
    adapters.set(schema, made as never)
    return made
  }
}
