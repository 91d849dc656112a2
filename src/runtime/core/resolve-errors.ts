import { checkFunction, checkString } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import { checkProblemTypeBase } from '../../shared/problem-details.js'
import { defaultFallbackMessage, type ErrorFormat, type ResolvedConfig } from './config.js'

/** `shapeguard()`'s `errors` as given: how errors are answered. */
export interface ErrorsOptions {
  /** Message of programmer errors in production. @default 'Something went wrong' */
  fallbackMessage?: string
  /** Called with every handled error before the response is sent; a throw is logged. */
  onError?: ResolvedConfig['errors']['onError']
  /** Every error answer as the error envelope, or as RFC 9457 problem details. @default 'envelope' */
  format?: ErrorFormat
  /** With problem details: each code's `type` is this URI followed by the code (`…/not-found`). @default `about:blank` */
  problemTypeBase?: string
}

const errorFormats: readonly unknown[] = ['envelope', 'problem+json'] satisfies ErrorFormat[]

/** Applies the defaults of `errors` and checks each option; throws naming the bad one. */
export function resolveErrors(errors: ErrorsOptions | undefined): ResolvedConfig['errors'] {
  const format = errors?.format ?? 'envelope'
  if (!errorFormats.includes(format)) {
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      "shapeguard: errors.format: must be 'envelope' or 'problem+json'",
    )
  }
  const problemTypeBase = checkProblemTypeBase(errors?.problemTypeBase, 'errors.problemTypeBase')
  if (problemTypeBase !== undefined && format !== 'problem+json') {
    throw optionError(
      'SG_ERR_OPTION_CONFLICT',
      "shapeguard: errors.problemTypeBase: names problem types, it needs errors.format 'problem+json'",
    )
  }
  return Object.freeze({
    fallbackMessage:
      checkString(errors?.fallbackMessage, 'errors.fallbackMessage') ?? defaultFallbackMessage,
    onError: checkFunction(errors?.onError, 'errors.onError'),
    format,
    problemTypeBase,
  })
}
