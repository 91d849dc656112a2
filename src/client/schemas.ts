import { isObject } from '../shared/is-object.js'
import { quoteName, StreamError } from './stream-error.js'

// The client reads schemas through Standard Schema (https://standardschema.dev) alone, so it loads
// no schema library: zod 4, valibot 1, yup 1, ArkType and others carry `~standard`.

interface StandardIssue {
  readonly message: string
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined
}

type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] }

/** A Standard Schema v1 (zod 4, valibot 1, yup 1, ArkType, …), as the client validates with it. */
export interface StandardSchema<Output = unknown> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined
  }
}

/**
 * What a schema produces: its Standard Schema output, or a shapeguard adapter's (`valibotAdapter(…)`
 * in a route); `unknown` for anything else.
 */
export type OutputOf<S> = S extends { readonly '~standard': { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly output: infer O }
    ? O
    : unknown
  : S extends { readonly '~types'?: infer T }
    ? NonNullable<T> extends { readonly output: infer O }
      ? O
      : unknown
    : unknown

/** One schema per event name: a route's `events`, or any record of Standard Schemas. */
export type EventSchemas = Readonly<Record<string, StandardSchema>>

/** The data type of each event of a record of schemas, by event name (each schema's output). */
export type EventDataOfSchemas<S> = { [K in keyof S & string]: OutputOf<S[K]> }

/**
 * A misuse TypeError with its registry code, as optionError makes them: made here because the
 * client carries none of the registry's text into a browser bundle.
 */
export function misuse(code: 'SG_ERR_NOT_A_SCHEMA' | 'SG_ERR_INVALID_OPTION', message: string) {
  return Object.assign(new TypeError(message), { code })
}

/** Throws at the call when a value given as a schema is not a Standard Schema. */
export function checkSchema(schema: unknown, where: string): asserts schema is StandardSchema {
  const standard = isObject(schema) ? schema['~standard'] : undefined
  if (!isObject(standard) || typeof standard.validate !== 'function')
    throw misuse(
      'SG_ERR_NOT_A_SCHEMA',
      `shapeguard: ${where} is not a Standard Schema (zod 4, valibot 1, yup 1 and ArkType schemas are)`,
    )
}

function pathOf(issue: StandardIssue | undefined): string {
  const keys = (issue?.path ?? []).map((key) =>
    String(isObject(key) ? (key as { key: PropertyKey }).key : key),
  )
  const path = keys.join('.')
  // Keys of a record come from the data: bounded, as the event name is.
  return path.length > 200 ? `${path.slice(0, 200)}…` : path
}

/**
 * The value a schema makes of `data`, or a `StreamError` naming what failed and where (the first
 * issue's path), never the value or the schema's message, which may quote it.
 */
export async function validate(
  schema: StandardSchema,
  data: unknown,
  failure: { code: 'EVENT_INVALID' | 'ITEM_INVALID'; event?: string },
): Promise<unknown> {
  const result = await schema['~standard'].validate(data)
  if (result.issues === undefined) return result.value
  const path = pathOf(result.issues[0])
  const what =
    failure.event === undefined ? 'a stream item' : `the data of event ${quoteName(failure.event)}`
  const where = path === '' ? '' : ` at ${path}`
  throw new StreamError(failure.code, `${what} does not match its schema${where}`, {
    event: failure.event,
    path,
  })
}
