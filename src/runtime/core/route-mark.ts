import type { SecurityRequirement, SecurityScheme } from '../../shared/security-scheme.js'
import type { ErrorFormat, ResolvedConfig, ResolvedOverload, ResolvedTimeout } from './config.js'

/**
 * The key under which a `validate()` middleware carries the route it was made from, so the routes
 * of an app can be found again (OpenAPI, fuzzing, a rate limit's key). `Symbol.for`: two copies of
 * the package agree.
 */
export const kRoute: unique symbol = Symbol.for('shapeguard.route') as never

/** A route definition as a middleware carries it; pipeline/route-types.ts types its fields. */
export type MarkedRoute = Readonly<Record<string, unknown>>

/** Sets the route on a middleware as a non-enumerable, read-only property; returns the middleware. */
export function markRoute<F extends object>(middleware: F, route: object): F {
  Object.defineProperty(middleware, kRoute, { value: route, enumerable: false })
  return middleware
}

/** The route a `validate()` middleware was made from, or undefined for any other value. */
export function routeOf(middleware: unknown): MarkedRoute | undefined {
  if (typeof middleware !== 'function') return undefined
  const route = (middleware as { [kRoute]?: unknown })[kRoute]
  return typeof route === 'object' && route !== null ? (route as MarkedRoute) : undefined
}

/**
 * How a `shapeguard()` middleware answers: what a document or a fuzzer made from the app needs to
 * know before any request.
 */
export interface MarkedAnswers {
  readonly format: ErrorFormat
  readonly problemTypeBase: string | undefined
  /** `response.shape` as given (field name → token); undefined for the default envelope. */
  readonly shape: Readonly<Record<string, string>> | undefined
  /** `response.statusCodes` as given (method → success status); undefined for the defaults. */
  readonly statusCodes: Readonly<Record<string, number>> | undefined
  /** The schemes of `auth` as the document writes them, by name; empty without `auth`. */
  readonly securitySchemes: Readonly<Record<string, SecurityScheme>>
  /** `defaultSecurity`; undefined when none is given. */
  readonly defaultSecurity: SecurityRequirement | undefined
  /** `timeout`: the limits of every route without its own; undefined when none is set. */
  readonly timeout: ResolvedTimeout | undefined
  /** `overload`: load shedding, undefined when it is off. */
  readonly overload: ResolvedOverload | undefined
}

/** What a `shapeguard()` middleware carries, so an app's configuration can be found from its stack. */
export interface ShapeguardMark {
  /**
   * The resolved configuration: the error middleware answers in the app's format even for an
   * error raised before the first request reached shapeguard() (a body parser's 400 on a fresh
   * process).
   */
  readonly config: ResolvedConfig
  readonly answers: MarkedAnswers
}

const kShapeguard: unique symbol = Symbol.for('shapeguard.middleware') as never

const frozenCopy = <T extends object>(value: T | undefined) =>
  value === undefined ? undefined : Object.freeze({ ...value })

/**
 * Marks a `shapeguard()` middleware with its resolved configuration and how it answers (frozen
 * copies of `response.shape` and `response.statusCodes` as given); returns the middleware.
 */
export function markShapeguard<F extends object>(
  middleware: F,
  config: ResolvedConfig,
  given: Partial<Pick<MarkedAnswers, 'shape' | 'statusCodes'>> | undefined,
): F {
  const { format, problemTypeBase } = config.errors
  const answers: MarkedAnswers = {
    format,
    problemTypeBase,
    shape: frozenCopy(given?.shape),
    statusCodes: frozenCopy(given?.statusCodes),
    securitySchemes: Object.freeze(
      Object.fromEntries([...config.auth.schemes].map(([name, s]) => [name, s.document])),
    ),
    defaultSecurity: config.auth.defaultSecurity,
    timeout: config.timeout,
    overload: config.overload,
  }
  const mark: ShapeguardMark = { config, answers: Object.freeze(answers) }
  Object.defineProperty(middleware, kShapeguard, { value: Object.freeze(mark), enumerable: false })
  return middleware
}

/** What a `shapeguard()` middleware carries, or undefined for any other value. */
export function shapeguardMarkOf(middleware: unknown): ShapeguardMark | undefined {
  if (typeof middleware !== 'function') return undefined
  const mark = (middleware as { [kShapeguard]?: unknown })[kShapeguard]
  return typeof mark === 'object' && mark !== null ? (mark as ShapeguardMark) : undefined
}
