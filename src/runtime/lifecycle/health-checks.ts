import { checkInteger, checkKnownKeys } from '../../shared/check-option.js'
import { optionError } from '../../shared/error-codes.js'
import { isObject } from '../../shared/is-object.js'
import { isThenable } from '../core/thenable.js'

/**
 * A readiness check: passes when it returns or resolves anything but `false`, fails when it
 * returns `false`, throws, rejects or outlasts its timeout (its signal then aborts).
 */
export type HealthCheckFn = (signal: AbortSignal) => unknown

/** An object with a `ping()`: `redisStore()`, or an ioredis or node-redis client. */
export interface Pingable {
  ping(): unknown
}

/** One of `health()`'s `checks`: a function, a `ping()`-able store or client, or either with its own timeout. */
export type HealthCheck =
  | HealthCheckFn
  | Pingable
  | { readonly check: HealthCheckFn | Pingable; readonly timeoutMs?: number }

/** A check as it runs: its name, its function and its timeout. */
export interface ResolvedCheck {
  readonly name: string
  readonly run: HealthCheckFn
  readonly timeoutMs: number
}

/** How one check ended: `ok`, `failed` (false, a throw, a rejection) or `timeout`. */
export type CheckState = 'ok' | 'failed' | 'timeout'

/** One check's outcome; `error` is what it threw, kept for a development answer only. */
export interface CheckOutcome {
  readonly state: CheckState
  readonly error: unknown
}

const isPingable = (value: unknown): value is Pingable =>
  isObject(value) && typeof (value as { ping?: unknown }).ping === 'function'

function runOf(check: unknown, where: string): HealthCheckFn {
  if (typeof check === 'function') return check as HealthCheckFn
  if (isPingable(check)) return () => check.ping()
  throw optionError(
    'SG_ERR_INVALID_OPTION',
    `shapeguard: ${where}: must be a function, an object with ping() (redisStore(), a Redis client) or { check, timeoutMs }`,
  )
}

/** Checks `checks` at mount time; each gets `timeoutMs` unless it has its own. */
export function resolveChecks(checks: unknown, timeoutMs: number): readonly ResolvedCheck[] {
  if (checks === undefined) return []
  if (!isObject(checks))
    throw optionError('SG_ERR_INVALID_OPTION', 'shapeguard: health(): checks must be an object')
  return Object.entries(checks).map(([name, given]) => {
    const where = `health(): checks.${name}`
    // Named in answers and the document as an object's key: `__proto__` would set its prototype.
    if (name === '__proto__' || name === '')
      throw optionError('SG_ERR_INVALID_OPTION', `shapeguard: ${where}: is not a check name`)
    if (isObject(given) && !isPingable(given) && 'check' in given) {
      checkKnownKeys(given, ['check', 'timeoutMs'], where)
      const own = given as { check: unknown; timeoutMs?: number }
      const ms = checkInteger(own.timeoutMs, `${where}.timeoutMs`, 1) ?? timeoutMs
      return { name, run: runOf(own.check, `${where}.check`), timeoutMs: ms }
    }
    return { name, run: runOf(given, where), timeoutMs }
  })
}

// The checks whose last call has not settled yet.
const hanging = new WeakSet<ResolvedCheck>()

const passed: CheckOutcome = Object.freeze({ state: 'ok', error: undefined })
const timedOut: CheckOutcome = Object.freeze({ state: 'timeout', error: undefined })
const returnedFalse: CheckOutcome = Object.freeze({ state: 'failed', error: undefined })

/**
 * Runs one check within its timeout: never throws, never waits past the timeout, and leaves no
 * timer behind whichever way the check ends. The check's signal aborts at the timeout, so a
 * check that honours it stops its work too.
 */
export function runCheck(check: ResolvedCheck): Promise<CheckOutcome> {
  // Its last call never settled (it ignored its signal): calling it again on every probe would
  // pile up calls (a pool's waiters, their closures). It counts as timed out until that one ends.
  if (hanging.has(check)) return Promise.resolve(timedOut)
  const controller = new AbortController()
  let result: unknown
  try {
    result = check.run(controller.signal)
    if (!isThenable(result)) return Promise.resolve(result === false ? returnedFalse : passed)
  } catch (error) {
    // Thrown by the check, or by a hostile `then` getter on what it returned.
    return Promise.resolve({ state: 'failed', error })
  }
  return new Promise<CheckOutcome>((resolve) => {
    const timer = setTimeout(() => {
      controller.abort()
      resolve(timedOut)
    }, check.timeoutMs)
    // A check must not hold the process open on its own.
    timer.unref()
    const settle = (outcome: CheckOutcome) => {
      clearTimeout(timer)
      resolve(outcome)
    }
    hanging.add(check)
    Promise.resolve(result)
      .then(
        (value) => settle(value === false ? returnedFalse : passed),
        (error: unknown) => settle({ state: 'failed', error }),
      )
      .finally(() => hanging.delete(check))
  })
}
