import Ajv2020 from 'ajv/dist/2020.js'
import type { OpenAPIDocument } from '../../openapi/generate/types.js'
import { isObject } from '../../shared/is-object.js'
import type { SecurityRequirement } from '../../shared/security-scheme.js'

type Json = Record<string, unknown>
type Check = ((x: unknown) => boolean) & {
  errors?: { instancePath: string; message?: string }[] | null
}

/** The statuses an operation documents and a validator of the answer's body for each. */
export interface Operation {
  readonly statuses: ReadonlySet<number>
  /** The operation's `security` as alternatives of scheme names; undefined when it states none. */
  readonly security: SecurityRequirement | undefined
  /** The JSON media type the document gives the status's answer, if any. */
  media(status: number): string | undefined
  /** Why a body does not match the status's documented schema (place and rule, no values), or undefined. */
  check(status: number, body: unknown): string | undefined
}

/** How the document writes error answers, for statuses it does not list. */
export interface ErrorAnswerCheck {
  /** What the answers are called in a broken invariant: `envelope` or `problem details`. */
  readonly name: string
  /** Their media type; undefined when the document describes none. */
  readonly media: string | undefined
  /** Why a body is not such an answer (place and rule, no values), or undefined. */
  check(body: unknown): string | undefined
}

/** A JSON Schema 2020-12 validator as the fuzzer's checks compile them. */
export function ajv() {
  const Ctor = (Ajv2020 as unknown as { default?: typeof Ajv2020 }).default ?? Ajv2020
  // The document's own keywords (example, discriminator, xml) are not validation keywords;
  // formats are the schema library's business, not the envelope's.
  return new Ctor({ strict: false, validateFormats: false, allErrors: false })
}

/** The OpenAPI path a `:param` route path is documented under (suffix match for a `prefix`). */
export function documentedPath(doc: OpenAPIDocument, path: string): string | undefined {
  const openapi = `/${path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => s.replace(/^:([A-Za-z0-9_$]+)$/, '{$1}'))
    .join('/')}`
  if (Object.hasOwn(doc.paths, openapi)) return openapi
  return Object.keys(doc.paths).find((p) => p.endsWith(openapi) && openapi !== '/')
}

// The media type of a JSON answer: `application/json` or a `+json` one (problem details).
const isJson = (media: string) => media === 'application/json' || media.endsWith('+json')

function resolve(doc: OpenAPIDocument, value: unknown): unknown {
  if (!isObject(value) || typeof value.$ref !== 'string') return value
  const name = value.$ref.replace('#/components/responses/', '')
  return doc.components.responses?.[name]
}

// OpenAPI's requirement objects (`[{ bearer: [] }]`) as alternatives of scheme names.
const requirements = (security: unknown): SecurityRequirement | undefined =>
  Array.isArray(security) ? security.filter(isObject).map((r) => Object.keys(r)) : undefined

/**
 * The documented statuses of an operation and validators of the answer bodies (envelopes) the
 * document describes for them, with the document's components for `$ref`s; undefined when the
 * document has no such operation.
 */
export function operationOf(
  doc: OpenAPIDocument,
  method: string,
  path: string,
): Operation | undefined {
  const key = documentedPath(doc, path)
  const op = key === undefined ? undefined : doc.paths[key]?.[method.toLowerCase()]
  if (!isObject(op) || !isObject(op.responses)) return undefined
  const validator = ajv()
  const checks = new Map<number, Check | undefined>()
  const medias = new Map<number, string>()
  for (const [status, response] of Object.entries(op.responses)) {
    const content = (resolve(doc, response) as Json | undefined)?.content as Json | undefined
    const media = Object.keys(content ?? {}).find(isJson)
    const schema = media === undefined ? undefined : (content?.[media] as Json | undefined)?.schema
    if (media !== undefined) medias.set(Number(status), media)
    checks.set(
      Number(status),
      schema === undefined
        ? undefined
        : (validator.compile({ ...(schema as Json), components: doc.components }) as Check),
    )
  }
  return {
    statuses: new Set(checks.keys()),
    security: requirements(op.security ?? (doc as { security?: unknown }).security),
    media: (status) => medias.get(status),
    check(status, body) {
      const check = checks.get(status)
      if (check === undefined || check(body)) return undefined
      const e = check.errors?.[0]
      return `${e?.instancePath || '(the root)'} ${e?.message ?? 'does not match'}`
    },
  }
}

/**
 * The document's error answer, for statuses the caller allows beyond the document: RFC 9457
 * problem details (`ProblemDetails`, `application/problem+json`) when it describes them, else the
 * error envelope (`ErrorEnvelope`, `application/json`).
 */
export function errorAnswerCheck(doc: OpenAPIDocument): ErrorAnswerCheck {
  const schemas = doc.components.schemas
  const problem = schemas?.ProblemDetails !== undefined
  const name = problem ? 'problem details' : 'envelope'
  const schema = problem ? schemas?.ProblemDetails : schemas?.ErrorEnvelope
  if (schema === undefined) return { name, media: undefined, check: () => undefined }
  const check = ajv().compile({ ...(schema as Json), components: doc.components }) as Check
  return {
    name,
    media: problem ? 'application/problem+json' : 'application/json',
    check(body) {
      if (check(body)) return undefined
      const e = check.errors?.[0]
      return `${e?.instancePath || '(the root)'} ${e?.message ?? 'does not match'}`
    },
  }
}
