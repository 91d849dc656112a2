import type { GuardLimits } from '../../runtime/guards/limits.js'
import type { QueryArrayKeys } from '../../runtime/pipeline/query-array-keys.js'
import type { UploadDraft } from '../arbitrary/upload.js'
import { cookiesWire, WRONG_SECRET } from './cookie-wire.js'
import { formWire, MULTIPART, mergeFields, multipartBody } from './form-wire.js'
import type { FuzzRequest, RequestKind } from './fuzz-request.js'
import { guardsRefuse } from './guard-refusal.js'
import { bodyWire, headersWire, paramsWire, queryWire } from './wire.js'

/** The values of one request, part by part, before they travel. */
export interface Parts {
  readonly params?: unknown
  readonly query?: unknown
  readonly headers?: unknown
  readonly body?: unknown
  readonly cookies?: unknown
  readonly signedCookies?: unknown
  /** The uploads of a route with `files`: the body is then `multipart/form-data`. */
  readonly files?: readonly UploadDraft[]
  /** A signed cookie signed with a secret that is not the app's. */
  readonly forged?: string
  /** `name=value` pairs added to the Cookie header (hostile ones). */
  readonly moreCookies?: readonly string[]
}

/** What shapes every request of a route. */
export interface Shape {
  readonly method: string
  readonly path: string
  readonly names: readonly string[]
  readonly headers: Readonly<Record<string, string>>
  readonly limits: GuardLimits
  readonly arrayKeys: QueryArrayKeys
  /** The body schema's array keys, for a form body. */
  readonly formKeys: QueryArrayKeys
  /** The route reads `multipart/form-data` (it declares files). */
  readonly multipart: boolean
  /** The app's first cookie secret, when the fuzzer could read it. */
  readonly secret: string | undefined
}

function cookieHeader(parts: Parts, secret: string | undefined): string | undefined {
  const plain = cookiesWire(parts.cookies)
  const pairs = plain.ok ? [...plain.wire] : []
  for (const [name, value] of Object.entries((parts.signedCookies ?? {}) as object)) {
    const signed = cookiesWire(
      { [name]: value },
      name === parts.forged ? WRONG_SECRET : (secret ?? WRONG_SECRET),
    )
    if (signed.ok) pairs.push(...signed.wire)
  }
  pairs.push(...(parts.moreCookies ?? []))
  return pairs.length === 0 ? undefined : pairs.join('; ')
}

function bodyOf(
  parts: Parts,
  shape: Shape,
): { body: string | Buffer | undefined; text: string | undefined } {
  if (!shape.multipart) {
    const b = bodyWire(parts.body)
    return { body: b.ok ? b.wire : undefined, text: b.ok ? b.wire : undefined }
  }
  const form = formWire(parts.body, shape.formKeys.repeatable, Number.POSITIVE_INFINITY)
  const fields = form.ok ? form.wire : []
  return {
    body: multipartBody(fields, parts.files ?? []),
    text: JSON.stringify(mergeFields(fields)),
  }
}

/** One request from its parts: the path filled, the query, headers, cookies and body. */
export function assemble(
  shape: Shape,
  parts: Parts,
  kind: RequestKind,
  extra: Partial<FuzzRequest>,
): FuzzRequest {
  const params = paramsWire(parts.params, shape.names)
  const filled = params.ok ? params.wire : {}
  const pathname = shape.path.replace(/:([A-Za-z0-9_$]+)/g, (_, n: string) =>
    encodeURIComponent(filled[n] ?? '1'),
  )
  const q = queryWire(parts.query, shape.arrayKeys.repeatable)
  let query = q.ok ? q.wire : ''
  if (extra.hostile === 'repeated-key')
    query = `${query}${query ? '&' : ''}fuzz_repeated=1&fuzz_repeated=2`
  const h = headersWire(parts.headers)
  const { body, text } = bodyOf(parts, shape)
  const headers: Record<string, string> = { ...shape.headers, ...(h.ok ? h.wire : {}) }
  if (body !== undefined) headers['content-type'] = shape.multipart ? MULTIPART : 'application/json'
  const cookie = cookieHeader(parts, shape.secret)
  if (cookie !== undefined) headers.cookie = cookie
  // The guards answer first: a 400 (413 when the body is also past the parser's size limit).
  const refused = guardsRefuse(
    { params: filled, query, body: text },
    shape.limits,
    shape.arrayKeys.repeatable,
  )
  return {
    kind,
    method: shape.method.toUpperCase(),
    url: `${pathname}${query ? `?${query}` : ''}`,
    headers,
    body,
    ...(refused ? { expect: body === undefined ? [400] : [400, 413] } : {}),
    ...extra,
  }
}
