import type { Request } from 'express'
import type { JsonWriter } from '../../engine/compile/compile-json.js'
import type { ResolvedScheme, SecurityRequirement } from '../../shared/security-scheme.js'
import type { AppError } from './app-error.js'

// The resolved configuration every layer reads: `shapeguard()` (middleware/resolve-config.ts) makes
// one frozen object per instance; a guarded route without it resolves the defaults.

/** Called with every handled error before the response is sent; must not throw. */
export type OnErrorHook = (err: AppError, req: Request) => void

/** Size limits of a request body; `validation.limits` globally, `limits` per route. */
export interface GuardLimits {
  /** Nested objects and arrays; the body itself is level 1, scalars add none. @default 20 */
  readonly maxDepth: number
  /** Longest array anywhere in the body. @default 1000 */
  readonly maxArrayLength: number
  /** Longest string anywhere in the body (keys included), in characters. @default 10000 */
  readonly maxStringLength: number
}

/** The compiled global shape: builds frozen success and error envelopes. */
export interface CompiledShape {
  success(data: unknown, message: string): Readonly<Record<string, unknown>>
  /**
   * The success envelope's JSON text with the data written by a response schema's writer: the
   * bytes `JSON.stringify(success(stripped, message))` gives; undefined when the writer does not
   * answer, or the message is not a string, and the envelope is built and stringified instead.
   */
  successJson(write: JsonWriter, data: unknown, message: unknown): string | undefined
  error(code: string, message: string, details: unknown): Readonly<Record<string, unknown>>
}

/** Exposure options with every default applied. */
export interface Exposure {
  readonly fieldName: boolean
  readonly message: boolean
  readonly enumValues: boolean
  readonly schemaCodes: boolean
}

/** `shapeguard()`'s configuration with every default applied; one frozen object per instance. */
export interface ResolvedConfig {
  readonly debug: boolean
  readonly requestId: {
    readonly enabled: boolean
    /** Lower-cased, as Node keys `req.headers`. */
    readonly header: string
    readonly generator: (() => string) | undefined
  }
  readonly validation: {
    readonly trim: boolean
    readonly lowercase: boolean
    readonly exposure: Exposure
    readonly limits: GuardLimits
  }
  readonly response: {
    readonly shape: CompiledShape
    readonly statusCodes: Readonly<Record<string, number>>
    readonly includeRequestId: boolean
  }
  /** Each is on only in development (`debug`), unless turned off. */
  readonly warnings: {
    /** Warn of data a success helper sends on a route without a response schema. */
    readonly missingResponseSchema: boolean
  }
  readonly errors: {
    readonly fallbackMessage: string
    readonly onError: OnErrorHook | undefined
    readonly format: ErrorFormat
    /** Problem types are this URI followed by the code; `about:blank` when undefined. */
    readonly problemTypeBase: string | undefined
  }
  readonly cookies: {
    /** The first signs (`req.secret`), every one verifies; empty when none is configured. */
    readonly secrets: readonly string[]
  }
  /** The time limits of every guarded route without its own (`timeout`); undefined when none is set. */
  readonly timeout: ResolvedTimeout | undefined
  /** Load shedding (`overload`); undefined when it is off. */
  readonly overload: ResolvedOverload | undefined
  readonly auth: {
    /** Each scheme of `auth` by name; empty when none is declared. */
    readonly schemes: ReadonlyMap<string, ResolvedScheme>
    /** The security of every guarded route without its own; undefined when none is given. */
    readonly defaultSecurity: SecurityRequirement | undefined
  }
}

/** A route's time limits in milliseconds, each undefined when it has none. */
export interface ResolvedTimeout {
  /** From the route's first step to the first byte of its answer (async validation, `transform`, the handler). */
  readonly handler: number | undefined
  /** A stream's longest wait between two events (heartbeats do not count). */
  readonly idle: number | undefined
  /** A stream's whole life, from its first byte. */
  readonly total: number | undefined
  /** The `Retry-After` (seconds) of a HANDLER_TIMEOUT answer. */
  readonly retryAfter: number
}

/** `overload` with every default applied. */
export interface ResolvedOverload {
  /** Shed while the event loop's delay is above it; undefined: not watched. */
  readonly maxEventLoopDelayMs: number | undefined
  /** Shed while `process.memoryUsage().heapUsed` is above it; undefined: not watched. */
  readonly maxHeapUsedBytes: number | undefined
  /** The `Retry-After` (seconds) of an OVERLOADED answer. */
  readonly retryAfter: number
  /** How often the limits are sampled, in milliseconds. */
  readonly sampleIntervalMs: number
}

/** How error answers are written: the error envelope, or RFC 9457 problem details. */
export type ErrorFormat = 'envelope' | 'problem+json'

/** The message of programmer errors in production when none is configured. */
export const defaultFallbackMessage = 'Something went wrong'

/** Whether development mode is on by default: read when called (at mount), never at import. */
export function debugFromEnv(): boolean {
  return process.env.NODE_ENV !== 'production'
}
