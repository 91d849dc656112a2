import { AppError } from '../app-error.js'
import { errorCodes } from '../error-codes.js'
import type { GuardLimits } from './limits.js'

/** Which part of the request a guard looked at, as its messages name it. */
export type GuardedPart = 'Body' | 'Query'

/**
 * A limit broken during a walk, by precedence: the highest found is the one reported. `none` is
 * 0 so that "anything found" is `worst !== Violation.none`.
 */
export const Violation = {
  none: 0,
  stringTooLong: 1,
  arrayTooLarge: 2,
  tooDeep: 3,
  paramPollution: 4,
} as const
export type Violation = (typeof Violation)[keyof typeof Violation]

function guardError(
  key: keyof typeof errorCodes,
  message: string,
  details: Record<string, unknown> | null,
): AppError {
  const { code, status } = errorCodes[key]
  return new AppError(code, message, status, details)
}

export function protoPollution(part: GuardedPart): AppError {
  return guardError('PROTO_POLLUTION', `${part} must not contain a "__proto__" key`, null)
}

export function paramPollution(param: string): AppError {
  return guardError('PARAM_POLLUTION', `Query parameter "${param}" must not be repeated`, {
    param,
  })
}

/** The error for a limit violation found by a walk (never `none` or `paramPollution`). */
export function limitError(worst: Violation, part: GuardedPart, limits: GuardLimits): AppError {
  switch (worst) {
    case Violation.tooDeep:
      return guardError(
        'BODY_TOO_DEEP',
        `${part} is nested deeper than ${limits.maxDepth} levels`,
        {
          maxDepth: limits.maxDepth,
        },
      )
    case Violation.arrayTooLarge:
      return guardError(
        'BODY_ARRAY_TOO_LARGE',
        `${part} contains an array longer than ${limits.maxArrayLength} items`,
        { maxArrayLength: limits.maxArrayLength },
      )
    default:
      return guardError(
        'STRING_TOO_LONG',
        `${part} contains a string longer than ${limits.maxStringLength} characters`,
        { maxStringLength: limits.maxStringLength },
      )
  }
}
