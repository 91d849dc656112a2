import { isAdapter, type SchemaAdapter } from '../engine/adapter.js'
import type { StandardSchemaV1 } from '../engine/standard-schema.js'
import { optionError } from '../shared/error-codes.js'
import { isStandardSchema, type StandardVendorHooks, standardAdapter } from './standard/index.js'
import { issueMessage as valibotMessage } from './valibot/messages.js'
import { type YupParsable, yupParser } from './yup/parse.js'
import { isZodSchema, zodAdapter } from './zod/index.js'

/** Turns one kind of schema object into an adapter, or returns undefined when it is not its kind. */
type Resolver = (value: unknown) => SchemaAdapter | undefined

// Tried in order. Zod comes before Standard Schema because zod 4 schemas implement it too but get
// the compiled path through zodAdapter. Valibot and yup schemas passed as they are also implement
// Standard Schema: they are validated natively here (the main entry never loads either library);
// valibotAdapter / yupAdapter give them the compiled path and the docs.
const resolvers: Resolver[] = [
  (value) => (isAdapter(value) ? value : undefined),
  (value) => (isZodSchema(value) ? zodAdapter(value as never) : undefined),
  (value) => (isStandardSchema(value) ? standardAdapter(value, vendorHooks(value)) : undefined),
]

// What is known of a library's Standard Schema implementation. valibot's default messages quote the
// value: a bare valibot schema gets the value-free ones valibotAdapter writes. yup's `validate` is
// always async and keeps unknown keys: a bare yup schema is parsed as yupAdapter parses it
// (synchronously, unknown keys removed, linear patterns, value-free messages), only without the
// compiled path.
function vendorHooks(schema: StandardSchemaV1): StandardVendorHooks {
  switch (schema['~standard'].vendor) {
    case 'valibot':
      return { message: valibotMessage }
    case 'yup':
      return { parse: yupParser(schema as unknown as YupParsable, true) as never }
    default:
      return {}
  }
}

// yup implements Standard Schema from 1.7 on; an older yup schema is recognised only to say so.
function isYupBeforeStandard(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { __isYupSchema__?: unknown }).__isYupSchema__ === true &&
    !('~standard' in value)
  )
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object')
    return `an object with keys ${Object.keys(value).slice(0, 5).join(', ') || '(none)'}`
  return typeof value
}

/**
 * Resolves anything accepted where a schema is expected into a schema adapter: an adapter as is,
 * a zod 4 schema through `zodAdapter`, any other Standard Schema object (`~standard`: ArkType,
 * Effect Schema, a bare valibot or yup schema, …) validated natively.
 * @example toAdapter(z.string()).library // → 'zod'
 */
export function toAdapter(value: unknown): SchemaAdapter {
  for (const resolve of resolvers) {
    const adapter = resolve(value)
    if (adapter) return adapter
  }
  if (isYupBeforeStandard(value)) {
    throw optionError(
      'SG_ERR_SCHEMA_UNSUPPORTED',
      "shapeguard: a bare yup schema needs yup 1.7 or later (Standard Schema), with an earlier yup 1 wrap it: yupAdapter(schema) from 'shapeguard/adapters/yup'",
    )
  }
  throw optionError(
    'SG_ERR_NOT_A_SCHEMA',
    `shapeguard: expected a zod schema or a schema adapter (zodAdapter, valibotAdapter, yupAdapter) or a Standard Schema object (\`~standard\`), received ${describe(value)}`,
  )
}
