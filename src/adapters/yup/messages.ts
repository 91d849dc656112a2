import { defaultLocale, ValidationError } from 'yup'

type Template = string | ((params: any) => string)

// yup's built-in type-error messages print the value ("… but the final value was: `…`"); they are
// taken as they stand when this module loads, so a message the user wrote (`.typeError('…')`, or
// `setLocale` later) is told apart from them and kept. A tuple has its own.
const builtin = {
  mixed: defaultLocale.mixed?.notType as Template | undefined,
  tuple: defaultLocale.tuple?.notType as Template | undefined,
}

// The same meaning, from the schema alone: the type (or a tuple's length) that was expected.
// formatError hands these the label, or else the path, as `path`.
const valueFree: Template = ({ path, type, spec, value }) => {
  const length = spec?.types?.length
  if (typeof length === 'number' && Array.isArray(value)) return `${path} must have ${length} items`
  return type === 'mixed'
    ? `${path} must match the configured type`
    : `${path} must be a \`${type}\` type`
}

function format(error: ValidationError, template: Template): string {
  return ValidationError.formatError(template, error.params ?? {})
}

/**
 * The message of one yup error, with yup's default type-error messages, which print the value
 * (`… but the final value was: \`…\``), replaced by the same sentence without it. Every other
 * message, and every message written in the schema, is yup's own.
 * @example issueMessage(error) // → 'age must be a `number` type'
 */
export function issueMessage(error: ValidationError): string {
  if (error.type !== 'typeError' || error.params === undefined) return error.message
  const template = Array.isArray((error.params as Record<string, any>).spec?.types)
    ? builtin.tuple
    : builtin.mixed
  if (template === undefined || format(error, template) !== error.message) return error.message
  return format(error, valueFree)
}
