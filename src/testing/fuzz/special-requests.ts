import type { Arbitrary } from 'fast-check'
import type { SchemaAdapter } from '../../engine/adapter.js'
import { declaredNames } from '../../runtime/cookies/declared-names.js'
import type { FilesSlot } from '../../runtime/pipeline/route-types.js'
import { hostileArbitrary, type Reach } from '../arbitrary/arbitrary.js'
import { boundedFilter } from '../arbitrary/bounded-filter.js'
import { fastCheck } from '../load-fast-check.js'
import type { Parts } from './assemble.js'
import { COOKIE_MARK, hostileCookies } from './cookie-wire.js'
import type { FuzzRequest, RequestKind } from './fuzz-request.js'
import { uploadCases } from './upload-cases.js'
import type { Part } from './wire.js'

/** Builds one request from its parts. */
export type Build = (kind: RequestKind, parts: Parts, extra?: Partial<FuzzRequest>) => FuzzRequest

/** One kind of request of a route, and its share of the run. */
export interface Kind {
  /** What the kind is called in a note (`no upload requests: …`). */
  readonly kind: string
  readonly weight: number
  readonly arbitrary: Arbitrary<FuzzRequest>
}

/** What the requests past the valid and invalid ones are made from. */
export interface Special {
  readonly adapters: Partial<Record<Part, SchemaAdapter>>
  readonly files: NonNullable<FilesSlot>
  readonly validParts: Arbitrary<Parts>
  readonly build: Build
  readonly reach: (part: Part) => Reach
  readonly notes: Set<string>
}

// An own `__proto__` field of a form, as a client can send one (an assignment would set the prototype).
const protoField = (body: unknown) => ({ ...JSON.parse('{"__proto__":"x"}'), ...(body as object) })

/** Guard cases: a repeated query key; `__proto__`, depth and sizes in a JSON body, or a `__proto__` form field. */
function hostileRequests({ adapters, files, validParts, build, reach }: Special) {
  const fc = fastCheck()
  const arbs: Arbitrary<FuzzRequest>[] = [
    // A repeated query key the schema does not declare as an array: 400 PARAM_POLLUTION.
    validParts.map((p) => build('hostile', p, { hostile: 'repeated-key' })),
  ]
  const body = adapters.body
  if (Object.keys(files).length > 0)
    arbs.push(
      validParts.map((p) =>
        build('hostile', { ...p, body: protoField(p.body) }, { hostile: 'proto-key' }),
      ),
    )
  else if (body !== undefined)
    arbs.push(
      fc
        .tuple(validParts, hostileArbitrary(body, 'body', reach('body')))
        .map(([p, h]) => build('hostile', { ...p, body: h.value }, { hostile: h.kind })),
    )
  return fc.oneof(...arbs)
}

/** Signed cookies, one of them signed with a secret that is not the app's: 422 naming it. */
function forgedRequests({ adapters, validParts, build }: Special): Arbitrary<FuzzRequest> {
  const fc = fastCheck()
  // Only a cookie the schema declares is refused for its signature; another is left out.
  const declared = declaredNames(adapters.signedCookies!)
  const named = (p: Parts) =>
    Object.entries((p.signedCookies ?? {}) as object)
      .filter(([k, v]) => v !== undefined && (declared === undefined || declared.has(k)))
      .map(([k]) => k)
  return boundedFilter(
    fc,
    validParts,
    (p) => named(p).length > 0,
    'valid signed cookies to forge',
  ).chain((p) =>
    fc
      .constantFrom(...named(p))
      .map((name) =>
        build(
          'invalid',
          { ...p, forged: name },
          { broken: { part: 'signedCookies', field: `signedCookies.${name}`, deep: false } },
        ),
      ),
  )
}

/**
 * The valid cookies and a hostile addition to the Cookie header: no 5xx, and the mark never
 * echoed, unless the `cookies` schema takes names it does not list (a record): there a hostile
 * cookie is a valid one, which the handler may return.
 */
function hostileCookieRequests({ adapters, validParts, build }: Special): Arbitrary<FuzzRequest> {
  const fc = fastCheck()
  const echo =
    adapters.cookies === undefined || declaredNames(adapters.cookies) !== undefined
      ? { echo: [COOKIE_MARK] }
      : {}
  return fc
    .tuple(validParts, fc.constantFrom(...Object.entries(hostileCookies)))
    .map(([p, [name, more]]) =>
      build('hostile', { ...p, moreCookies: more() }, { hostile: name, ...echo }),
    )
}

/**
 * The requests besides valid and invalid ones: guard cases; for a route with files, the upload
 * cases (upload-cases.ts); with signed cookies, a forged signature; with cookies, hostile headers.
 */
export function specialRequests(s: Special): Kind[] {
  const fc = fastCheck()
  const kinds: Kind[] = [{ kind: 'hostile', weight: 1, arbitrary: hostileRequests(s) }]
  if (Object.keys(s.files).length > 0) {
    const cases = uploadCases(fc, s.files, s.notes)
    kinds.push({
      kind: 'upload',
      weight: 2,
      arbitrary: fc.tuple(s.validParts, cases).map(([p, c]) =>
        c.field === undefined
          ? s.build(
              'hostile',
              { ...p, files: c.uploads(p.files ?? []) },
              {
                hostile: c.name,
                ...(c.expect ? { expect: c.expect } : {}),
                ...(c.echo ? { echo: c.echo } : {}),
              },
            )
          : s.build(
              'invalid',
              { ...p, files: c.uploads(p.files ?? []) },
              {
                broken: { part: 'files', field: c.field, deep: false },
              },
            ),
      ),
    })
  }
  if (s.adapters.signedCookies !== undefined)
    kinds.push({ kind: 'wrong-signature', weight: 1, arbitrary: forgedRequests(s) })
  if (s.adapters.cookies !== undefined || s.adapters.signedCookies !== undefined)
    kinds.push({ kind: 'hostile cookie', weight: 1, arbitrary: hostileCookieRequests(s) })
  return kinds
}
