import type { Request } from 'express'
import type { AppError } from './app-error.js'
import { type CompiledShape, compileShape, type ResponseShape } from './envelope.js'
import type { LoggerOptions } from './logging/options.js'
import type { Logger } from './logging/types.js'

/** HTTP methods whose default success status `response.statusCodes` can change. */
export type SuccessStatusMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** Called with every handled error before the response is sent; must not throw. */
export type OnErrorHook = (err: AppError, req: Request) => void

/** Configuration of `shapeguard()` (SPEC.md 4.6). */
export interface ShapeguardConfig {
  /** Development mode: real messages and stacks of programmer errors, warnings. @default NODE_ENV !== 'production' at mount time */
  debug?: boolean
  /** Logging options; `instance` is checked at mount time and used by errorHandler. */
  logger?: LoggerOptions
  response?: {
    /** Renames the envelope fields, e.g. `{ ok: '{success}', result: '{data}', msg: '{message}' }`. */
    shape?: ResponseShape
    /** Default `res.ok` status per method. @default POST 201, others 200 */
    statusCodes?: Partial<Record<SuccessStatusMethod, number>>
  }
  errors?: {
    /** Message of programmer errors in production. @default 'Something went wrong' */
    fallbackMessage?: string
    onError?: OnErrorHook
  }
}

/** `shapeguard()`'s configuration with every default applied; one frozen object per instance. */
export interface ResolvedConfig {
  readonly debug: boolean
  /** The logger given in the configuration; `undefined` means the shared singleton. */
  readonly logger: Logger | undefined
  readonly response: {
    readonly shape: CompiledShape
    readonly statusCodes: Readonly<Record<string, number>>
  }
  readonly errors: {
    readonly fallbackMessage: string
    readonly onError: OnErrorHook | undefined
  }
}

const defaults = Object.freeze({
  fallbackMessage: 'Something went wrong',
  statusCodes: Object.freeze({ GET: 200, POST: 201, PUT: 200, PATCH: 200, DELETE: 200 }),
})

export const defaultFallbackMessage = defaults.fallbackMessage

/** Whether development mode is on by default: read when called (at mount), never at import. */
export function debugFromEnv(): boolean {
  return process.env.NODE_ENV !== 'production'
}

/** Applies defaults and checks every option; throws a message naming the bad option. */
export function resolveConfig(config: ShapeguardConfig = {}): ResolvedConfig {
  return Object.freeze({
    debug: config.debug ?? debugFromEnv(),
    logger: checkLogger(config.logger?.instance),
    response: Object.freeze({
      shape: compileShape(config.response?.shape),
      statusCodes: resolveStatusCodes(config.response?.statusCodes),
    }),
    errors: Object.freeze({
      fallbackMessage: config.errors?.fallbackMessage ?? defaults.fallbackMessage,
      onError: checkFunction(config.errors?.onError, 'errors.onError'),
    }),
  })
}

function resolveStatusCodes(
  given: Partial<Record<SuccessStatusMethod, number>> | undefined,
): Readonly<Record<string, number>> {
  if (given === undefined) return defaults.statusCodes
  const out: Record<string, number> = { ...defaults.statusCodes }
  for (const [method, status] of Object.entries(given)) {
    if (!(method in defaults.statusCodes)) {
      throw new TypeError(
        `shapeguard: response.statusCodes.${method} is not one of GET, POST, PUT, PATCH, DELETE`,
      )
    }
    if (!Number.isInteger(status) || (status as number) < 200 || (status as number) > 299) {
      throw new TypeError(`shapeguard: response.statusCodes.${method} must be a 2xx status`)
    }
    out[method] = status as number
  }
  return Object.freeze(out)
}

function checkLogger(instance: Logger | undefined): Logger | undefined {
  if (instance === undefined) return undefined
  for (const method of ['debug', 'info', 'warn', 'error'] as const) {
    if (typeof instance?.[method] !== 'function') {
      throw new TypeError(`shapeguard: logger.instance has no ${method}() method`)
    }
  }
  return instance
}

function checkFunction<T>(value: T | undefined, name: string): T | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw new TypeError(`shapeguard: ${name} must be a function`)
  }
  return value
}
