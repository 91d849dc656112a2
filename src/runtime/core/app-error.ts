import type { Schema, SchemaInput } from '../../engine/adapter.js'
import { type ErrorCode, type ErrorCodeEntry, errorCodes } from '../../shared/error-codes.js'
import { checkDefinition, detailsCheck } from './details-check.js'
import { hostClientError } from './host-errors.js'
import { dataField, isError } from './safe-read.js'
import type { ValidationIssue } from './validation-issue.js'

// Symbol.for: two copies of the package (or a bundled and an installed one) share the brand.
const kAppError: unique symbol = Symbol.for('shapeguard.AppError') as never

/** Options of the `AppError` constructor beyond code, message, status and details. */
export interface AppErrorOptions {
  /** The value this error was made from (ES2022 `Error.cause`). */
  cause?: unknown
  /** `false` marks a programmer error that errorHandler hides in production. @default true */
  isOperational?: boolean
}

/** Any code shapeguard sends, or one of your own. */
export type AppErrorCode = ErrorCode | (string & {})

/**
 * A factory made by `AppError.define`: call it to raise its error; it carries its code, status,
 * default message and `details` schema, so a route's `errors` can declare it.
 */
export interface AppErrorFactory<Details = unknown, Code extends string = string> {
  (details: Details, message?: string): AppError<Details>
  readonly code: Code
  readonly statusCode: number
  /** The message when the raiser gives none. */
  readonly message: string
  /** The schema of `details`, when one was given. */
  readonly details: Schema | undefined
}

/** Options of `AppError.define`. */
export interface DefineOptions<S extends Schema | undefined = Schema | undefined> {
  /** The schema of the error's `details`: documented, and checked in development when the factory is called. */
  readonly details?: S
}

/** What a route's `errors` lists: a code of the registry, or a factory made by `AppError.define`. */
export type DeclaredError = ErrorCode | AppErrorFactory<any>

/**
 * The one error class: a code, a client-facing message, an HTTP status and optional details.
 * @param details extra data sent in `error.details`; default `null`
 * @example throw new AppError('OUT_OF_STOCK', 'Item is out of stock', 409, { sku })
 */
export class AppError<Details = unknown> extends Error {
  readonly code: AppErrorCode
  readonly statusCode: number
  readonly details: Details | null
  readonly isAppError = true as const
  /** `true` for errors raised on purpose; `false` for programmer errors wrapped by `fromUnknown`. */
  readonly isOperational: boolean
  declare readonly [kAppError]: true

  constructor(
    code: AppErrorCode,
    message: string,
    statusCode: number,
    details?: Details | null,
    options?: AppErrorOptions,
  ) {
    super(message, options && 'cause' in options ? { cause: options.cause } : undefined)
    this.name = new.target.name
    this.code = code
    this.statusCode = statusCode
    this.details = details ?? null
    this.isOperational = options?.isOperational ?? true
  }

  /** 404 NOT_FOUND, `<resource> not found`. */
  static notFound(resource?: string): AppError<null> {
    return raise('NOT_FOUND', resource ? `${resource} not found` : undefined)
  }

  /** 401 UNAUTHORIZED, `Authentication required` unless a message is given. */
  static unauthorized(message?: string): AppError<null> {
    return raise('UNAUTHORIZED', message)
  }

  /** 403 FORBIDDEN, `Access denied` unless a message is given. */
  static forbidden(message?: string): AppError<null> {
    return raise('FORBIDDEN', message)
  }

  /** 409 CONFLICT, `<resource> already exists`. */
  static conflict(resource?: string): AppError<null> {
    return raise('CONFLICT', resource ? `${resource} already exists` : undefined)
  }

  /** 422 VALIDATION_ERROR; details hold the single issue, or the array when there are several. */
  static validation(
    issues: ValidationIssue | readonly ValidationIssue[],
  ): AppError<ValidationIssue | readonly ValidationIssue[]> {
    const details = Array.isArray(issues) && issues.length === 1 ? issues[0] : issues
    return raise('VALIDATION_ERROR', undefined, details)
  }

  /** 500 INTERNAL_ERROR raised on purpose: its message is sent as given, also in production. */
  static internal(message?: string): AppError<null> {
    return raise('INTERNAL_ERROR', message, null, { isOperational: true })
  }

  /** Any code and status. */
  static custom<Details = unknown>(
    code: AppErrorCode,
    message: string,
    statusCode: number,
    details?: Details | null,
  ): AppError<Details> {
    return new AppError(code, message, statusCode, details)
  }

  /** Wraps an error object of an older convention (`{code, message, statusCode}`). */
  static fromLegacy<Details = unknown>(legacy: {
    code: string
    message: string
    statusCode: number
    details?: Details | null
  }): AppError<Details> {
    return new AppError(legacy.code, legacy.message, legacy.statusCode, legacy.details, {
      cause: legacy,
    })
  }

  /**
   * A factory for one error kind: its code, status, default message and, optionally, the schema
   * of its details (which types them, and which checks them in development: details it does not
   * accept throw a TypeError naming the code and the path). List it in a route's `errors` to
   * document it.
   * @example const OutOfStock = AppError.define('OUT_OF_STOCK', 409, 'Out of stock', { details: z.object({ sku: z.string() }) })
   */
  static define<const Code extends string, S extends Schema>(
    code: Code,
    statusCode: number,
    defaultMessage: string | undefined,
    options: DefineOptions<S> & { readonly details: S },
  ): AppErrorFactory<SchemaInput<S>, Code>
  static define<Details = unknown, const Code extends string = string>(
    code: Code,
    statusCode: number,
    defaultMessage?: string,
    options?: DefineOptions<undefined>,
  ): AppErrorFactory<Details, Code>
  static define(
    code: string,
    statusCode: number,
    defaultMessage?: string,
    options?: DefineOptions,
  ): AppErrorFactory {
    const adapter = checkDefinition(code, statusCode, defaultMessage, options)
    const message = defaultMessage ?? code
    const check = adapter === undefined ? undefined : detailsCheck(code, adapter)
    const factory = (details: unknown, given?: string) => {
      check?.(details)
      return new AppError(code, given ?? message, statusCode, details)
    }
    return Object.defineProperties(factory, {
      code: { value: code, enumerable: true },
      statusCode: { value: statusCode, enumerable: true },
      message: { value: message, enumerable: true },
      details: { value: options?.details, enumerable: true },
    }) as unknown as AppErrorFactory
  }

  /**
   * Converts any thrown value: an AppError passes through unchanged, a client error of the host
   * framework (malformed JSON, body too large) becomes its 4xx, anything else a programmer error
   * (500 INTERNAL_ERROR, `isOperational: false`) that keeps the value as `cause`. Only data
   * properties of an Error are read: no getter runs, no text of a thrown non-Error is kept.
   */
  static fromUnknown(value: unknown): AppError {
    if (isAppError(value)) return value
    const client = hostClientError(value)
    if (client !== undefined) {
      return raise(client.code, client.message, client.details, { cause: value })
    }
    return raise('INTERNAL_ERROR', describe(value), null, { cause: value })
  }
}

Object.defineProperty(AppError.prototype, kAppError, { value: true })

/**
 * An error of a code shapeguard sends, made from the registry: its status, and its default
 * message unless one is given. A code the registry does not expose (INTERNAL_ERROR) is raised as
 * a programmer error unless `options.isOperational` says otherwise. Every error shapeguard raises
 * comes from here.
 */
export function raise<Details = null>(
  code: ErrorCode,
  message?: string,
  details?: Details | null,
  options?: AppErrorOptions,
): AppError<Details> {
  const entry: ErrorCodeEntry = errorCodes[code]
  return new AppError<Details>(code, message ?? entry.message, entry.status, details, {
    isOperational: entry.exposed,
    ...options,
  })
}

/**
 * Whether a value is an AppError (or subclass), also one made by another copy of shapeguard.
 * @example if (isAppError(err)) res.status(err.statusCode)
 */
export function isAppError(value: unknown): value is AppError {
  return typeof value === 'object' && value !== null && dataField(value, kAppError) === true
}

/** A thrown value as an Error, for `next()`: a non-Error must never read as `next('route')`. */
export function asError(value: unknown): Error {
  return isError(value) ? value : AppError.fromUnknown(value)
}

// The development message of a programmer error (production sends the fallback message).
function describe(value: unknown): string {
  if (isError(value)) {
    const message = dataField(value, 'message')
    if (typeof message === 'string' && message !== '') return message
    const name = dataField(value, 'name')
    return typeof name === 'string' && name !== '' ? name : 'Error'
  }
  if (typeof value === 'string') return value || 'Empty string thrown'
  if (typeof value === 'object' && value !== null) return 'Non-error object thrown'
  if (typeof value === 'function') return 'Non-error function thrown'
  return `Non-error value thrown: ${String(value)}`
}
