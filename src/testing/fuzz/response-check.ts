import Ajv2020 from 'ajv/dist/2020.js'
import type { OpenAPIDocument } from '../../openapi/generate/types.js'

type Json = Record<string, unknown>
type Check = ((x: unknown) => boolean) & {
  errors?: { instancePath: string; message?: string }[] | null
}

/** The statuses an operation documents and a validator of the answer's body for each. */
export interface Operation {
  readonly statuses: ReadonlySet<number>
  /** Why a body does not match the status's documented schema (place and rule, no values), or undefined. */
  check(status: number, body: unknown): string | undefined
}

const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x)

function ajv() {
  const Ctor = (Ajv2020 as unknown as { default?: typeof Ajv2020 }).default ?? Ajv2020
  // The document's own keywords (example, discriminator, xml) are not validation keywords;
  // formats are the schema library's business, not the envelope's.
  return new Ctor({ strict: false, validateFormats: false, allErrors: false })
}

/** The OpenAPI path a `:param` route path is documented under (suffix match for a `prefix`). */
function documentedPath(doc: OpenAPIDocument, path: string): string | undefined {
  const openapi = `/${path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => s.replace(/^:([A-Za-z0-9_$]+)$/, '{$1}'))
    .join('/')}`
  if (Object.hasOwn(doc.paths, openapi)) return openapi
  return Object.keys(doc.paths).find((p) => p.endsWith(openapi) && openapi !== '/')
}

function resolve(doc: OpenAPIDocument, value: unknown): unknown {
  if (!isObject(value) || typeof value.$ref !== 'string') return value
  const name = value.$ref.replace('#/components/responses/', '')
  return doc.components.responses?.[name]
}

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
  for (const [status, response] of Object.entries(op.responses)) {
    const content = (resolve(doc, response) as Json | undefined)?.content as Json | undefined
    const schema = (content?.['application/json'] as Json | undefined)?.schema
    checks.set(
      Number(status),
      schema === undefined
        ? undefined
        : (validator.compile({ ...(schema as Json), components: doc.components }) as Check),
    )
  }
  return {
    statuses: new Set(checks.keys()),
    check(status, body) {
      const check = checks.get(status)
      if (check === undefined || check(body)) return undefined
      const e = check.errors?.[0]
      return `${e?.instancePath || '(the root)'} ${e?.message ?? 'does not match'}`
    },
  }
}

/** The error envelope schema of the document, for statuses the caller allows beyond the document. */
export function errorEnvelopeCheck(doc: OpenAPIDocument): (body: unknown) => string | undefined {
  const schema = doc.components.schemas?.ErrorEnvelope
  if (schema === undefined) return () => undefined
  const check = ajv().compile({ ...(schema as Json), components: doc.components }) as Check
  return (body) => {
    if (check(body)) return undefined
    const e = check.errors?.[0]
    return `${e?.instancePath || '(the root)'} ${e?.message ?? 'does not match'}`
  }
}
