import type { Issue, RequestPart } from '../../engine/result.js'
import type { CookieSlot } from '../cookies/cookie-sources.js'
import { AppError } from '../core/app-error.js'
import type { Exposure } from '../core/config.js'
import { inPart, type ValidationIssue } from '../core/validation-issue.js'
import { clientName } from '../guards/client-name.js'

/**
 * What a validation error's issues are in: a request part, or a cookie slot, whose fields are
 * named after it (`cookies.theme`): a cookie's name alone could be a body field's.
 */
export type IssuePart = RequestPart | CookieSlot

const named = (part: IssuePart): part is CookieSlot =>
  part === 'cookies' || part === 'signedCookies'

/** Message of every issue when `exposeMessage` is off. */
export const HIDDEN_MESSAGE = 'Invalid value'
/** Message of an enum or literal mismatch when `exposeEnumValues` is off. */
export const HIDDEN_ENUM_MESSAGE = 'Invalid option'
/** Message of a missing body on a route whose body schema rejects `undefined`. */
export const BODY_REQUIRED = 'body is required'

// Issue codes whose library messages list the allowed values: zod (`invalid_value`, and zod 3's
// `invalid_enum_value`), valibot (`picklist`, `enum`, `literal`), yup (`oneOf`, `notOneOf`),
// ArkType (`unit`). A message written in the schema is replaced too: it cannot be told apart.
const enumCodes: ReadonlySet<string> = new Set([
  'invalid_value',
  'invalid_enum_value',
  'picklist',
  'enum',
  'literal',
  'oneOf',
  'notOneOf',
  'unit',
])

/**
 * The 422 VALIDATION_ERROR for one request part's issues, shown as the exposure options allow:
 * `fieldName` off names only the part; `message` off says `Invalid value`; `enumValues` off says
 * `Invalid option` for enum and literal mismatches; `schemaCodes` on adds the library's `code`.
 * @param allErrors every issue when true, else the first.
 */
export function validationError(
  issues: readonly Issue[],
  part: IssuePart,
  allErrors: boolean,
  exposure: Exposure,
): AppError {
  const count = allErrors ? issues.length : Math.min(issues.length, 1)
  const out: ValidationIssue[] = []
  for (let i = 0; i < count; i++) out.push(detail(issues[i]!, part, exposure))
  const error = AppError.validation(out)
  // Problem details' `in` names the four request parts only; a cookie's field names its slot.
  return named(part) ? error : inPart(error, part)
}

// A cookie's name is the client's (a record schema takes any), kept raw in the jar: it is shown
// cleaned and clipped, as a multipart field's.
const cookiePath = (path: Issue['path']): string => path.map((k) => clientName(String(k))).join('.')

function detail(issue: Issue, part: IssuePart, exposure: Exposure): ValidationIssue {
  const field =
    !exposure.fieldName || issue.path.length === 0
      ? part
      : named(part)
        ? `${part}.${cookiePath(issue.path)}`
        : issue.path.join('.')
  let message = issue.message
  if (message !== BODY_REQUIRED) {
    if (!exposure.message) message = HIDDEN_MESSAGE
    else if (!exposure.enumValues && enumCodes.has(issue.code)) message = HIDDEN_ENUM_MESSAGE
  }
  return exposure.schemaCodes ? { field, message, code: issue.code } : { field, message }
}
