import { isObject } from '../../shared/is-object.js'
import { Collector } from './collector.js'
import { compareRequestBody, compareResponses } from './compare-content.js'
import { compareParameters } from './compare-parameters.js'
import { compareSecurity, compareSecuritySchemes } from './compare-security.js'
import type { DiffContext } from './context.js'
import { readDoc } from './document.js'
import { operationsOf } from './operations.js'
import { schemaViews } from './schema-view.js'
import type { DiffFinding } from './types.js'

function checked(doc: unknown, which: string): Record<string, unknown> {
  if (!isObject(doc) || typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.'))
    throw new TypeError(
      `shapeguard: diffOpenAPI: the ${which} document is not an OpenAPI 3.x document (it needs an openapi field 3.0.x or 3.1.x; Swagger 2.0 is not read)`,
    )
  return doc
}

/**
 * Compares two OpenAPI 3.0 or 3.1 documents as a client of `base` meets `head`: what it sends
 * (requests, parameters, credentials) must still be accepted, what it reads (responses) must not
 * hold more than it knew. Local `$ref`s are followed (cycles end), `allOf` merged, `oneOf`/`anyOf`
 * branches matched by the component they name.
 * @example
 * const breaking = diffOpenAPI(base, head).filter((f) => f.level === 'breaking')
 */
export function diffOpenAPI(base: unknown, head: unknown): DiffFinding[] {
  const b = readDoc(checked(base, 'base'))
  const h = readDoc(checked(head, 'head'))
  const out = new Collector()
  const ctx: DiffContext = {
    base: b,
    head: h,
    baseSchema: schemaViews(b),
    headSchema: schemaViews(h),
    out,
  }
  const [bOps, hOps] = [operationsOf(b), operationsOf(h)]
  for (const [key, bOp] of bOps) {
    const hOp = hOps.get(key)
    out.operation = bOp.name
    if (hOp === undefined) {
      out.emit('operation-removed', 'base', bOp.ptr, `operation ${bOp.name} removed`)
      continue
    }
    out.operation = hOp.name
    compareParameters(ctx, bOp, hOp)
    compareRequestBody(ctx, bOp, hOp)
    compareResponses(ctx, bOp, hOp)
    compareSecurity(ctx, bOp, hOp)
  }
  for (const [key, hOp] of hOps) {
    if (bOps.has(key)) continue
    out.operation = hOp.name
    out.emit('operation-added', 'head', hOp.ptr, `operation ${hOp.name} added`)
  }
  out.operation = undefined
  compareSecuritySchemes(ctx)
  return out.findings()
}
