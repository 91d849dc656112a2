import type { Request } from 'express'
import type { Issue } from '../../engine/result.js'
import { optionError } from '../../shared/error-codes.js'
import type { ResolvedConfig } from '../core/config.js'
import { cookieJar } from './cookie-jar.js'

/** A route's slots of cookies: each is validated as a request part is. */
export type CookieSlot = 'cookies' | 'signedCookies'

/** Where a cookie slot's input comes from and where its validated value goes. */
export interface CookieSource {
  /** Issues found before the schema runs; undefined when there are none. */
  refuse(req: Request, config: ResolvedConfig): Issue[] | undefined
  read(req: Request, config: ResolvedConfig): unknown
  write(req: Request, value: unknown): void
}

/** Message of a declared signed cookie whose signature no secret verifies. */
export const BAD_SIGNATURE = 'Invalid signature'
/** Message of a declared signed cookie sent without a signature. */
export const NOT_SIGNED = 'Cookie is not signed'

type Cookies = { cookies?: unknown; signedCookies?: unknown }

/**
 * The `cookies` slot: the cookies of the `Cookie` header that are not signed (cookie-parser files
 * the signed ones apart), and the validated values replace `req.cookies`.
 */
export const cookieSource: CookieSource = {
  refuse: () => undefined,
  read: (req, config) => cookieJar(req, config.cookies.secrets).plain,
  write: (req, value) => {
    ;(req as Cookies).cookies = value
  },
}

/**
 * The `signedCookies` slot: the cookies a secret of `shapeguard({ cookies: { secrets } })`
 * verifies, and the validated values replace `req.signedCookies`. A cookie the schema declares
 * (`names`; every name when undefined) that comes with a bad signature, or with none, is refused.
 * Without secrets every request throws: a route of signed cookies must never pass unsigned ones.
 */
export function signedCookieSource(names: ReadonlySet<string> | undefined): CookieSource {
  const declared = (name: string) => names === undefined || names.has(name)
  return {
    refuse(req, config) {
      const { secrets } = config.cookies
      if (secrets.length === 0) {
        throw optionError(
          'SG_ERR_MISSING_OPTION',
          'shapeguard: signedCookies: needs the secrets that verify them, shapeguard({ cookies: { secrets: [secret] } })',
        )
      }
      const jar = cookieJar(req, secrets)
      let issues: Issue[] | undefined
      const refuse = (name: string, message: string) => {
        issues ??= []
        issues.push({ path: [name], message, code: 'signature' })
      }
      for (const name of jar.forged) if (declared(name)) refuse(name, BAD_SIGNATURE)
      // An unsigned cookie under a name that must be signed: its signature is absent.
      if (names !== undefined)
        for (const name of names) if (name in jar.plain) refuse(name, NOT_SIGNED)
      return issues
    },
    read: (req, config) => cookieJar(req, config.cookies.secrets).signed,
    write: (req, value) => {
      ;(req as Cookies).signedCookies = value
    },
  }
}
