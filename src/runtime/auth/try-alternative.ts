import type { Request } from 'express'
import type { ResolvedScheme } from '../../shared/security-scheme.js'
import type { ResolvedConfig } from '../core/config.js'
import { isThenable } from '../core/thenable.js'
import { MISSING, REFUSED } from './authorization.js'
import { readApiKey } from './read-api-key.js'
import { type BasicCredentials, readBasic } from './read-basic.js'
import { readBearer } from './read-bearer.js'

/**
 * Whether a verifier's answer admits: any truthy value but the readers' markers. A falsy one
 * refuses, `0` and `''` too: a verifier returning a count or an empty lookup must not admit.
 */
export function admits(verdict: unknown): boolean {
  return Boolean(verdict) && verdict !== MISSING && verdict !== REFUSED
}

function readCredential(scheme: ResolvedScheme, req: Request, config: ResolvedConfig): unknown {
  switch (scheme.kind) {
    case 'bearer':
      return readBearer(req)
    case 'basic':
      return readBasic(req)
    case 'apiKey':
      return readApiKey(scheme, req, config)
    default:
      // A custom scheme reads the request itself: it is always tried.
      return req
  }
}

function verify(scheme: ResolvedScheme, credential: unknown, req: Request): unknown {
  switch (scheme.kind) {
    case 'bearer':
    case 'apiKey':
      return scheme.verify(credential as string, req)
    case 'basic': {
      const { user, password } = credential as BasicCredentials
      return scheme.verify(user, password, req)
    }
    default:
      return scheme.verify(req)
  }
}

/**
 * One alternative of a route's security tried: its principal (an object by scheme name for several
 * schemes), a refusal, MISSING when none of its credentials was sent, or a promise of one. No
 * verifier runs unless every credential of the alternative was sent and could be read. A verifier's
 * throw goes on to the caller.
 */
export function tryAlternative(
  schemes: readonly ResolvedScheme[],
  req: Request,
  config: ResolvedConfig,
): unknown {
  if (schemes.length === 1) {
    const scheme = schemes[0]!
    const credential = readCredential(scheme, req, config)
    if (credential === MISSING || credential === REFUSED) return credential
    return verify(scheme, credential, req)
  }
  const credentials: unknown[] = []
  let missing = 0
  for (const scheme of schemes) {
    const credential = readCredential(scheme, req, config)
    if (credential === REFUSED) return REFUSED
    if (credential === MISSING) missing++
    credentials.push(credential)
  }
  if (missing === schemes.length) return MISSING
  if (missing > 0) return REFUSED
  return verifyEach(schemes, credentials, req, {}, 0)
}

// Each verifier in turn until one refuses; synchronous until one answers later.
function verifyEach(
  schemes: readonly ResolvedScheme[],
  credentials: readonly unknown[],
  req: Request,
  principals: Record<string, unknown>,
  from: number,
): unknown {
  for (let i = from; i < schemes.length; i++) {
    const scheme = schemes[i]!
    const verdict = verify(scheme, credentials[i], req)
    if (isThenable(verdict)) {
      return Promise.resolve(verdict).then((later) => {
        if (!admits(later)) return later
        keep(principals, scheme.name, later)
        return verifyEach(schemes, credentials, req, principals, i + 1)
      })
    }
    if (!admits(verdict)) return verdict
    keep(principals, scheme.name, verdict)
  }
  return principals
}

// A scheme may be named `__proto__`: an own property, never the object's prototype.
function keep(principals: Record<string, unknown>, name: string, principal: unknown): void {
  Object.defineProperty(principals, name, {
    value: principal,
    enumerable: true,
    writable: true,
    configurable: true,
  })
}
