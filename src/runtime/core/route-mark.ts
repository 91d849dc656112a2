import type { ErrorFormat, ResolvedConfig } from './config.js'

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
 * How a `shapeguard()` middleware answers, as it carries it: what a document or a fuzzer made
 * from the app needs to know before any request.
 */
export interface MarkedAnswers {
  readonly format: ErrorFormat
  readonly problemTypeBase: string | undefined
  /** `response.shape` as given (field name → token); undefined for the default envelope. */
  readonly shape: Readonly<Record<string, string>> | undefined
  /** `response.statusCodes` as given (method → success status); undefined for the defaults. */
  readonly statusCodes: Readonly<Record<string, number>> | undefined
}

const kAnswers: unique symbol = Symbol.for('shapeguard.answers') as never

/** Sets how a `shapeguard()` middleware answers on it (frozen copies); returns the middleware. */
export function markAnswers<F extends object>(middleware: F, answers: MarkedAnswers): F {
  const { format, problemTypeBase, shape, statusCodes } = answers
  const value: MarkedAnswers = {
    format,
    problemTypeBase,
    shape: shape === undefined ? undefined : Object.freeze({ ...shape }),
    statusCodes: statusCodes === undefined ? undefined : Object.freeze({ ...statusCodes }),
  }
  Object.defineProperty(middleware, kAnswers, { value: Object.freeze(value), enumerable: false })
  return middleware
}

/** How a `shapeguard()` middleware answers, or undefined for any other value. */
export function answersOf(middleware: unknown): MarkedAnswers | undefined {
  if (typeof middleware !== 'function') return undefined
  const answers = (middleware as { [kAnswers]?: unknown })[kAnswers]
  return typeof answers === 'object' && answers !== null ? (answers as MarkedAnswers) : undefined
}

// The key under which a `shapeguard()` middleware carries its resolved configuration, so that the
// error middleware answers in the app's format even for an error raised before the first request
// reached shapeguard() (a body parser's 400 on a fresh process).
const kConfig: unique symbol = Symbol.for('shapeguard.config') as never

/** Sets the resolved configuration on a `shapeguard()` middleware; returns the middleware. */
export function markConfig<F extends object>(middleware: F, config: ResolvedConfig): F {
  Object.defineProperty(middleware, kConfig, { value: config, enumerable: false })
  return middleware
}

/** The configuration a `shapeguard()` middleware carries, or undefined for any other value. */
export function configMarkOf(middleware: unknown): ResolvedConfig | undefined {
  if (typeof middleware !== 'function') return undefined
  const config = (middleware as { [kConfig]?: unknown })[kConfig]
  return typeof config === 'object' && config !== null ? (config as ResolvedConfig) : undefined
}
