import { type AppError, raise } from '../core/app-error.js'

/**
 * The error of a response helper used where shapeguard() never configured the app: the message
 * names the fix, and what was thrown (a `res.ok is not a function` TypeError) stays the cause.
 */
export function withoutShapeguard(what: string, cause?: unknown): AppError {
  return raise(
    'INTERNAL_ERROR',
    `${what}: res.ok, res.fail and the other response helpers exist only after app.use(shapeguard()) or on handle()/validate() routes`,
    null,
    cause === undefined ? undefined : { cause },
  )
}
