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

/** How a `shapeguard()` middleware writes error answers, as it carries it. */
export interface MarkedErrors {
  readonly format: ErrorFormat
  readonly problemTypeBase: string | undefined
}

// The key under which a `shapeguard()` middleware carries its error format, so that a document
// or a fuzzer made from the app knows it before any request.
const kErrors: unique symbol = Symbol.for('shapeguard.errors') as never

/** Sets the error format on a `shapeguard()` middleware; returns the middleware. */
export function markErrors<F extends object>(middleware: F, errors: MarkedErrors): F {
  const { format, problemTypeBase } = errors
  Object.defineProperty(middleware, kErrors, {
    value: Object.freeze({ format, problemTypeBase }),
    enumerable: false,
  })
  return middleware
}

/** The error format a `shapeguard()` middleware carries, or undefined for any other value. */
export function errorsOf(middleware: unknown): MarkedErrors | undefined {
  if (typeof middleware !== 'function') return undefined
  const errors = (middleware as { [kErrors]?: unknown })[kErrors]
  return typeof errors === 'object' && errors !== null ? (errors as MarkedErrors) : undefined
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
