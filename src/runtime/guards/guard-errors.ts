import { AppError } from '../errors/app-error.js'
import { errorCodes } from '../errors/error-codes.js'
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

// C1 controls (U+0080–U+009F, U+009B is a terminal's CSI), DEL and the line and paragraph
// separators, which JSON.stringify leaves as they are.
const unescaped = /[\u007f-\u009f\u2028\u2029]/g

/**
 * Client text as it may appear in a message: a JSON string literal (quoted, with every control
 * character escaped), so that it can neither start a new log line nor reach a terminal as an
 * escape sequence.
 */
function quoted(text: string): string {
  return JSON.stringify(text).replace(
    unescaped,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/** `details.param` is the key as sent (sanitised), which the JSON envelope escapes itself. */
export function paramPollution(param: string): AppError {
  return guardError('PARAM_POLLUTION', `Query parameter ${quoted(param)} must not be repeated`, {
    param,
  })
}

/** The error for a limit violation found by a walk (never `none`). */
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
