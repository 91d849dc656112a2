import { type AppError, raise } from '../core/app-error.js'
import { safeJson } from '../logging/printable.js'
import type { GuardLimits } from './limits.js'

/** Which part of the request a guard looked at, as its messages name it. */
export type GuardedPart = 'Body' | 'Query' | 'Params'

/**
 * A limit broken during a walk, by precedence: the highest found is the one reported. `none` is
 * 0 so that "anything found" is `worst !== Violation.none`.
 */
export const Violation = {
  none: 0,
  stringTooLong: 1,
  arrayTooLarge: 2,
  tooDeep: 3,
} as const
export type Violation = (typeof Violation)[keyof typeof Violation]

export function protoPollution(part: GuardedPart): AppError {
  return raise('PROTO_POLLUTION', `${part} must not contain a "__proto__" key`, null)
}

/**
 * Client text as it may appear in a message: a JSON string literal (quoted, with every control
 * character and line separator escaped, as log lines write them), so that it can neither start a
 * new log line nor reach a terminal as an escape sequence.
 */
function quoted(text: string): string {
  return safeJson(JSON.stringify(text))
}

/** `details.param` is the key as sent (sanitised), which the JSON envelope escapes itself. */
export function paramPollution(param: string): AppError {
  return raise('PARAM_POLLUTION', `Query parameter ${quoted(param)} must not be repeated`, {
    param,
  })
}

/** The error for a limit violation found by a walk (never `none`). */
export function limitError(worst: Violation, part: GuardedPart, limits: GuardLimits): AppError {
  switch (worst) {
    case Violation.tooDeep:
      return raise('BODY_TOO_DEEP', `${part} is nested deeper than ${limits.maxDepth} levels`, {
        maxDepth: limits.maxDepth,
      })
    case Violation.arrayTooLarge:
      return raise(
        'BODY_ARRAY_TOO_LARGE',
        `${part} contains an array longer than ${limits.maxArrayLength} items`,
        { maxArrayLength: limits.maxArrayLength },
      )
    default:
      return raise(
        'STRING_TOO_LONG',
        `${part} contains a string longer than ${limits.maxStringLength} characters`,
        { maxStringLength: limits.maxStringLength },
      )
  }
}
