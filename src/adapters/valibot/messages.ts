// Types only: the Standard Schema adapter uses this for bare valibot schemas, from the main entry,
// which never loads valibot.
import type { BaseIssue } from 'valibot'

type IssueLike = Pick<BaseIssue<unknown>, 'kind' | 'message' | 'expected' | 'received' | 'input'>

function typeName(input: unknown): string {
  if (input === null) return 'null'
  if (typeof input !== 'object' && typeof input !== 'function') return typeof input
  // A prototype's constructor is code, never request data (JSON gives Object and Array).
  const name = (Object.getPrototypeOf(input) as { constructor?: { name?: unknown } } | null)
    ?.constructor?.name
  return typeof name === 'string' && name !== '' ? name : 'Object'
}

/**
 * The message of one valibot issue, with valibot's default message, which prints the value
 * (`Invalid type: Expected string but received "…"`), replaced by the same sentence without it: a
 * type mismatch names the type received, any other issue what was expected. A message written in
 * the schema or set with `setGlobalMessage` (or any other) is not the default and is kept.
 * @example issueMessage(issue) // → 'Invalid type: Expected number but received string'
 */
export function issueMessage(issue: IssueLike): string {
  const { expected, received, message } = issue
  // The default is `Invalid <label>: Expected <expected> but received <received>`, or `Received
  // <received>` with no expectation; the label is a word of valibot's own.
  const tail = expected ? `Expected ${expected} but received ${received}` : `Received ${received}`
  if (
    typeof message !== 'string' ||
    !message.startsWith('Invalid ') ||
    !message.endsWith(`: ${tail}`)
  )
    return message
  const label = message.slice('Invalid '.length, message.length - tail.length - 2)
  if (issue.kind === 'schema' && expected)
    return `Invalid ${label}: Expected ${expected} but received ${typeName(issue.input)}`
  return expected ? `Invalid ${label}: Expected ${expected}` : `Invalid ${label}`
}
