/**
 * Whether a value a user's function returned answers later: an object or a function with a
 * `then` method (a promise, or any thenable).
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  )
}
