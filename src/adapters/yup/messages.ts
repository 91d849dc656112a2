/** What this module reads of a yup `ValidationError` (duck-typed: no yup import). */
export interface YupErrorLike {
  readonly message: string
  readonly type?: string | undefined
  readonly params?: Record<string, unknown> | undefined
}

// The openings of yup's built-in type-error messages, which go on to print the value
// ("… but the final value was: `…`"). A message the user wrote (`.typeError('…')`, `setLocale`)
// does not open this way, so it is kept.
function builtinTypeError(error: YupErrorLike): string | undefined {
  const { label, type, spec, value } = error.params ?? {}
  // What yup's formatError prints for `${path}`.
  const path = label || error.params?.path || 'this'
  const length = (spec as { types?: unknown[] } | undefined)?.types?.length
  if (typeof length === 'number' && Array.isArray(value) && value.length !== length) {
    const sentence = `${path} must have ${length} items`
    const opening = `${path} tuple value has too ${value.length < length ? 'few' : 'many'} items`
    return error.message.startsWith(opening) ? sentence : undefined
  }
  if (type === 'mixed') {
    const opening = `${path} must match the configured type. The validated value was: \``
    return error.message.startsWith(opening) ? `${path} must match the configured type` : undefined
  }
  const sentence = `${path} must be a \`${type}\` type`
  return error.message.startsWith(`${sentence}, but the final value was: \``) ? sentence : undefined
}

/**
 * The message of one yup error, with yup's default type-error messages, which print the value
 * (`… but the final value was: \`…\``), replaced by the same sentence without it. Every other
 * message, and every message written in the schema, is yup's own.
 * @example issueMessage(error) // → 'age must be a `number` type'
 */
export function issueMessage(error: YupErrorLike): string {
  if (error.type !== 'typeError') return error.message
  return builtinTypeError(error) ?? error.message
}
