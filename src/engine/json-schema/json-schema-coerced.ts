import type { IRBigInt, IRBoolean, IRDate, IRNode, IRNumber, IRString } from '../ir/types.js'
import type { NodeOf } from '../ir/visit.js'
import type { JsonSchema } from './json-schema-types.js'

// What a client may send for a leaf that converts its input first: in a JSON body, the declared
// type with its constraints (never an empty schema), or a string the library reads as that type.
// Each pattern is a subset of what the conversions accept (JavaScript's `Number`, `BigInt` and
// `new Date`, as zod's `coerce` and valibot's `toNumber` run them, and yup's casts), covering the
// forms clients write; a bound (`minimum`, …) applies to the value read, which a pattern cannot say.

/** A leaf that may convert its input (`coerce` not false). */
export type CoercingLeaf = IRString | IRNumber | IRBigInt | IRBoolean | IRDate

// At most 15 integer digits: below 2^53, so a safe integer, and finite for every conversion.
const INTEGER = '\\d{1,15}'
const DAY = '\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])'
const TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,9})?)?'
const ZONE = '(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)'

/** An ISO 8601 date, or date-time with an optional zone (without one, the server's local time). */
export const DATE_PATTERN = `^${DAY}(?:T${TIME}${ZONE}?)?$`
/** yup's boolean cast: `true`, `false`, `1`, `0`, in any case. */
export const YUP_BOOLEAN_PATTERN = '^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[01])$'
export const BIGINT_PATTERN = '^-?\\d+$'

/** Decimal numerals; without a sign when the bounds take no negative number. */
function numeral(node: IRNumber): string {
  const sign = node.checks.some((c) => (c.kind === 'gte' || c.kind === 'gt') && c.value >= 0)
    ? ''
    : '-?'
  return node.integer ? `^${sign}${INTEGER}$` : `^${sign}${INTEGER}(?:\\.\\d+)?$`
}

// The strings each kind's conversion reads as its type; undefined: any string (a string leaf,
// JavaScript's `Boolean`).
const patterns: { readonly [K in CoercingLeaf['kind']]: (node: NodeOf<K>) => string | undefined } =
  {
    string: () => undefined,
    number: numeral,
    bigint: () => BIGINT_PATTERN,
    // A function is yup's cast; `true` is JavaScript's `Boolean(value)`.
    boolean: (n) => (n.coerce === true ? undefined : YUP_BOOLEAN_PATTERN),
    date: () => DATE_PATTERN,
  }

const patternOf = (node: CoercingLeaf): string | undefined =>
  (patterns[node.kind] as (n: CoercingLeaf) => string | undefined)(node)

const isCoercing = (node: IRNode): node is CoercingLeaf =>
  Object.hasOwn(patterns, node.kind) && (node as CoercingLeaf).coerce !== false

/** A schema that also requires `pattern`. */
function withPattern(schema: JsonSchema, pattern: string): JsonSchema {
  if (schema.pattern === undefined) return { ...schema, pattern }
  return { ...schema, allOf: [...((schema.allOf as JsonSchema[]) ?? []), { pattern }] }
}

/**
 * A coercing leaf's input schema for a JSON body: `typed`, its own schema, widened to the string
 * forms its conversion reads (a string leaf takes numbers and booleans; a date is a string).
 */
export function coercedInput(node: CoercingLeaf, typed: JsonSchema): JsonSchema {
  if (node.kind === 'date') return { type: 'string', pattern: DATE_PATTERN }
  if (node.kind === 'string') return { ...typed, type: ['string', 'number', 'boolean'] }
  const pattern = patternOf(node)
  const s: JsonSchema = { ...typed, type: [typed.type, 'string'] }
  if (pattern !== undefined) return withPattern(s, pattern)
  return { ...s, $comment: 'a string is read as Boolean(string): "" is false, any other true' }
}

/**
 * The input schema `written` of a string a pipe hands to `out`: when `out` converts it (to a
 * number, a date, …), only the strings that conversion reads.
 */
export function readAs(written: JsonSchema, out: IRNode): JsonSchema {
  if (!isCoercing(out) || written.$ref !== undefined) return written
  const pattern = patternOf(out)
  return pattern === undefined ? written : withPattern(written, pattern)
}
