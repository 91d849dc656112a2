import { config } from 'zod/v4/core'

interface TypeIssue {
  readonly code: string
  readonly expected?: string
  readonly input?: unknown
}

function receivedType(input: unknown): string {
  if (input === null) return 'null'
  if (Array.isArray(input)) return 'array'
  if (typeof input === 'number') {
    if (Number.isNaN(input)) return 'NaN'
    return Number.isFinite(input) ? 'number' : String(input)
  }
  if (typeof input === 'object') {
    const obj = input as { constructor?: { name: string } }
    if (
      Object.getPrototypeOf(obj) !== Object.prototype &&
      'constructor' in obj &&
      obj.constructor
    ) {
      return obj.constructor.name
    }
    return 'object'
  }
  return typeof input
}

/**
 * zod's type-mismatch wording as shapeguard writes it (`Expected object, received array`), used as a
 * per-parse error map: a message written in the schema, or a global `z.config({ customError })`,
 * still wins; every other issue keeps zod's own message.
 * @example typeMessage({ code: 'invalid_type', expected: 'object', input: [] }) // → 'Expected object, received array'
 */
export function typeMessage(issue: TypeIssue): string | undefined {
  const custom = config().customError?.(issue as never)
  if (custom !== undefined && custom !== null)
    return typeof custom === 'string' ? custom : custom.message
  if (issue.code !== 'invalid_type' || issue.expected === undefined) return undefined
  const expected = issue.expected === 'nan' ? 'NaN' : issue.expected
  return `Expected ${expected}, received ${receivedType(issue.input)}`
}
