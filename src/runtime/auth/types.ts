import type { Request } from 'express'
import type { AuthSchemes, SecurityRequirement, Verdict } from '../../shared/security-scheme.js'

/**
 * Where an app registers its `auth` for the types, as hono's `ContextVariableMap` is extended:
 * `declare module 'shapeguard' { interface Register { auth: typeof auth } }`. A route's `security`
 * then takes only its scheme names, and `req.auth` in a `handle()` handler is the principal its
 * verifiers return.
 */
// biome-ignore lint/suspicious/noEmptyInterface: extended by the app's declaration
export interface Register {}

/** The registered `auth` (`Register['auth']`), or `undefined` when none is registered. */
export type RegisteredAuth = Register extends { readonly auth: infer A } ? A : undefined

/** A scheme name a route's `security` may list: the registered ones, else any string. */
export type SchemeName = RegisteredAuth extends object ? keyof RegisteredAuth & string : string

/** `shapeguard({ auth })` with verifiers that receive Express's request. */
export type AuthConfig = AuthSchemes<Request>

/** What a scheme's verifier admits: its principal, without the refusals. */
export type PrincipalOf<Scheme> = Scheme extends (...args: any[]) => infer R
  ? Exclude<Awaited<R>, Verdict<never>>
  : Scheme extends { readonly verify: (...args: any[]) => infer R }
    ? Exclude<Awaited<R>, Verdict<never>>
    : unknown

type NamedPrincipal<N> = RegisteredAuth extends object
  ? N extends keyof RegisteredAuth
    ? PrincipalOf<RegisteredAuth[N]>
    : unknown
  : unknown

/** What `req.auth` is for one alternative: a name's principal, or each name's for an array. */
type AlternativeAuth<I> = I extends readonly (infer N)[]
  ? { readonly [K in N & string]: NamedPrincipal<K> }
  : NamedPrincipal<I>

/**
 * The type of `req.auth` for a route's `security` `Sec`: the principal of whichever alternative
 * admitted the request (an object by scheme name for an alternative of several), `undefined` on
 * a public route (`[]`); without a `security` of its own the app's default applies, which the
 * types do not know: any registered principal, or `undefined`.
 */
export type AuthOf<Sec> = [Sec] extends [undefined]
  ? RegisteredAuth extends object
    ? NamedPrincipal<keyof RegisteredAuth> | undefined
    : unknown
  : // `[]` and `never[]` (what `security: []` infers as without `as const`) are public
    [Sec] extends [readonly never[]]
    ? undefined
    : Sec extends SecurityRequirement<any>
      ? RegisteredAuth extends object
        ? AlternativeAuth<Sec[number]>
        : unknown
      : unknown
