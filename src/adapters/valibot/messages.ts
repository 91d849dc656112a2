import { type BaseIssue, type ErrorMessage, getGlobalMessage } from 'valibot'

function typeName(input: unknown): string {
  if (input === null) return 'null'
  if (typeof input !== 'object' && typeof input !== 'function') return typeof input
  // A prototype's constructor is code, never request data (JSON gives Object and Array).
  const name = (Object.getPrototypeOf(input) as { constructor?: { name?: unknown } } | null)
    ?.constructor?.name
  return typeof name === 'string' && name !== '' ? name : 'Object'
}

/**
 * valibot's default message without the value it prints (`Invalid type: Expected string but
 * received "…"`): a type mismatch names the type received, any other issue what was expected.
 * Passed as the parse's `message`, it has the lowest precedence but the global one: messages written
 * in the schema, `setSpecificMessage`, `setSchemaMessage` and `setGlobalMessage` still win.
 * @example valueFreeMessage(issue) // → 'Invalid type: Expected number but received string'
 */
export const valueFreeMessage: ErrorMessage<BaseIssue<unknown>> = (issue) => {
  const global = getGlobalMessage(issue.lang)
  if (global !== undefined) return typeof global === 'function' ? global(issue) : global
  const { expected, received, message } = issue
  // The default is `Invalid <label>: Expected <expected> but received <received>` (or `Received
  // <received>` with no expectation); the label is a word of valibot's own.
  const tail = expected ? `Expected ${expected} but received ${received}` : `Received ${received}`
  const label =
    message.startsWith('Invalid ') && message.endsWith(`: ${tail}`)
      ? message.slice('Invalid '.length, message.length - tail.length - 2)
      : issue.kind === 'schema'
        ? 'type'
        : 'input'
  if (issue.kind === 'schema' && expected)
    return `Invalid ${label}: Expected ${expected} but received ${typeName(issue.input)}`
  return expected ? `Invalid ${label}: Expected ${expected}` : `Invalid ${label}`
}
