import type { AnyRoute } from '../../runtime/pipeline/route-types.js'
import { type SecretPlaces, secretPlaces } from '../../shared/credential-places.js'
import { optionError } from '../../shared/error-codes.js'
import type { SecurityRequirement, SecurityScheme } from '../../shared/security-scheme.js'
import {
  type Credential,
  coveredByHeaders,
  type Placed,
  place,
  type Random,
  wrongFor,
} from './credentials.js'
import type { FuzzRequest } from './fuzz-request.js'
import { brokenInvariant, type RouteChecks } from './invariants.js'
import type { Answer } from './send-request.js'

// The security of each route, the user's credentials for it, and the ignored_auth check
// (Schemathesis's): a secured route answers 401 to a request without credentials and to one with
// wrong credentials of the right shape.

/** What the run knows of the app's security. */
export interface AuthRun {
  /** The app's schemes by name, as the document writes them. */
  readonly schemes: Readonly<Record<string, SecurityScheme>>
  /** The security of a route without its own. */
  readonly defaultSecurity: SecurityRequirement | undefined
  /** `auth` by scheme name (empty for the string form, which is in `headers`). */
  readonly given: Readonly<Record<string, Credential>>
  /** The headers of every request (`headers`, and `auth` in its string form). */
  readonly headers: Readonly<Record<string, string>>
  /** Every place a credential travels: what the requests of the check leave out, and curl lines mask. */
  readonly places: SecretPlaces
}

/**
 * The run's security from the app's schemes (its shapeguard(), else the document's), checking
 * that `auth` names only schemes the app declares.
 */
export function authRun(
  schemes: Readonly<Record<string, SecurityScheme>>,
  defaultSecurity: SecurityRequirement | undefined,
  auth: string | Readonly<Record<string, Credential>> | undefined,
  headers: Readonly<Record<string, string>>,
): AuthRun {
  const given = typeof auth === 'object' ? auth : {}
  const extra: string[] = []
  for (const [name, value] of Object.entries(given)) {
    const doc = schemes[name]
    if (doc === undefined)
      throw optionError(
        'SG_ERR_UNKNOWN_NAME',
        `shapeguard: fuzzRoutes(): options.auth names ${name}, which the app does not declare (${Object.keys(schemes).join(', ') || 'no scheme'})`,
      )
    extra.push(...Object.keys(place(name, doc, value).headers))
  }
  return { schemes, defaultSecurity, given, headers, places: secretPlaces(schemes, extra) }
}

/** A route's security and the user's credentials for it. */
export interface RouteAuth {
  /** The alternatives, each the scheme names that must all pass; empty for a public route. */
  readonly alternatives: readonly (readonly string[])[]
  /** Where the user's credentials for the first alternative they cover travel; undefined when none do. */
  readonly credentials: readonly Placed[] | undefined
}

/**
 * The security of a route: its own, else the app's default, else the one the document gives its
 * operation; `[]` and an alternative of no scheme (OpenAPI's `{}`) make it public.
 */
export function routeAuth(
  run: AuthRun,
  route: AnyRoute,
  documented: SecurityRequirement | undefined,
): RouteAuth {
  const security: SecurityRequirement =
    (route.security as SecurityRequirement | undefined) ?? run.defaultSecurity ?? documented ?? []
  const alternatives = security.map((a) => (typeof a === 'string' ? [a] : [...a]))
  if (alternatives.length === 0 || alternatives.some((a) => a.length === 0))
    return { alternatives: [], credentials: [] }
  for (const names of alternatives) {
    const placed: Placed[] = []
    const covered = names.every((name) => {
      const doc = run.schemes[name]
      const value = run.given[name]
      if (doc !== undefined && value !== undefined) placed.push(place(name, doc, value))
      return value !== undefined || (doc !== undefined && coveredByHeaders(doc, run.headers))
    })
    if (covered) return { alternatives, credentials: placed }
  }
  return { alternatives, credentials: undefined }
}

const appended = (url: string, pairs: readonly (readonly [string, string])[]) =>
  pairs.length === 0
    ? url
    : `${url}${url.includes('?') ? '&' : '?'}${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`

/** The request with credentials added: their headers, query parameters and cookies. */
export function withPlaced(req: FuzzRequest, placed: readonly Placed[]): FuzzRequest {
  if (placed.length === 0) return req
  const headers: Record<string, string> = { ...req.headers }
  for (const p of placed) Object.assign(headers, p.headers)
  const cookies = placed.flatMap((p) => p.cookies.map(([k, v]) => `${k}=${encodeURIComponent(v)}`))
  if (cookies.length > 0)
    headers.cookie = [...(headers.cookie === undefined ? [] : [headers.cookie]), ...cookies].join(
      '; ',
    )
  return {
    ...req,
    url: appended(
      req.url,
      placed.flatMap((p) => p.query),
    ),
    headers,
  }
}

function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '))
  } catch {
    return name
  }
}

const nameOf = (pair: string, sep: string) => {
  const at = pair.indexOf(sep)
  return (at === -1 ? pair : pair.slice(0, at)).trim()
}

// The request with every credential left out: `Authorization`, API keys wherever they travel.
function withoutCredentials(req: FuzzRequest, places: SecretPlaces): FuzzRequest {
  const headers = Object.fromEntries(
    Object.entries(req.headers).filter(([name]) => !places.headers.has(name.toLowerCase())),
  )
  const cookie = headers.cookie
    ?.split(';')
    .filter((pair) => !places.cookies.has(nameOf(pair, '=')))
    .join(';')
  if (cookie === '') delete headers.cookie
  else if (cookie !== undefined) headers.cookie = cookie
  const [path, query] = req.url.split('?', 2) as [string, string | undefined]
  const kept = query
    ?.split('&')
    .filter((pair) => !places.query.has(decoded(nameOf(pair, '='))))
    .join('&')
  return { ...req, url: kept ? `${path}?${kept}` : path, headers }
}

/** One request of the ignored_auth check, and what it is in a report. */
export interface Probe {
  readonly label: string
  readonly request: FuzzRequest
}

/**
 * The requests of the ignored_auth check for a secured route, made from one valid request: one
 * without credentials, and per alternative one with wrong credentials of each of its schemes.
 */
export function probes(sample: FuzzRequest, auth: RouteAuth, run: AuthRun, rand: Random): Probe[] {
  const bare: FuzzRequest = {
    ...withoutCredentials(sample, run.places),
    kind: 'hostile',
    hostile: 'no-credentials',
    expect: [401],
  }
  const out: Probe[] = [{ label: 'a request without credentials', request: bare }]
  for (const names of auth.alternatives) {
    const wrong = names.map((name) => {
      const doc = run.schemes[name]
      return doc === undefined ? undefined : wrongFor(name, doc, run.given[name], rand)
    })
    if (wrong.some((w) => w === undefined)) continue
    const request = { ...withPlaced(bare, wrong as Placed[]), hostile: 'wrong-credentials' }
    out.push({ label: `a request with a wrong ${names.join(' and ')} credential`, request })
  }
  return out
}

/** What is wrong with an answer of the ignored_auth check: anything but a well-formed 401 (or the route's 429). */
export function ignoredAuth(probe: Probe, answer: Answer, checks: RouteChecks): string | undefined {
  const limited = answer.status === 429 && checks.rateLimited
  if (answer.status !== 401 && !limited)
    return `ignored_auth: ${probe.label} got ${answer.status}, not 401`
  return brokenInvariant(probe.request, answer, checks)
}
