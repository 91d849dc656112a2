import { optionError } from '../../shared/error-codes.js'
import { isObject } from '../../shared/is-object.js'
import { Collector } from './collector.js'
import { compareRequestBody, compareResponses } from './compare-content.js'
import { compareParameters } from './compare-parameters.js'
import { compareSecurity, compareSecuritySchemes } from './compare-security.js'
import type { DiffContext } from './context.js'
import { readDoc } from './document.js'
import { operationsOf } from './operations.js'
import type { DiffRule } from './rules.js'
import { schemaViews } from './schema-view.js'
import type { DiffFinding } from './types.js'

function checked(doc: unknown, which: string): Record<string, unknown> {
  if (!isObject(doc) || typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.'))
    throw optionError(
      'SG_ERR_INVALID_OPTION',
      `shapeguard: diffOpenAPI: the ${which} document is not an OpenAPI 3.x document (it needs an openapi field 3.0.x or 3.1.x; Swagger 2.0 is not read)`,
    )
  return doc
}

// A sunset is a day (`x-sunset: 2027-03-01`, as shapeguard and oasdiff write it): the operation
// may go once that day has begun, in UTC.
const sunsetOf = (op: Record<string, unknown>): number | undefined => {
  const day = op['x-sunset']
  const time = typeof day === 'string' ? Date.parse(day) : Number.NaN
  return Number.isFinite(time) ? time : undefined
}

/** How removing an operation is judged: its base's deprecation and `x-sunset` say when it may go. */
function removal(op: Record<string, unknown>): [DiffRule, string] {
  if (op.deprecated !== true) return ['operation-removed', '']
  const sunset = sunsetOf(op)
  if (sunset === undefined) return ['deprecated-operation-removed', ' (it was deprecated)']
  const day = new Date(sunset).toISOString().slice(0, 10)
  return sunset <= Date.now()
    ? ['operation-removed-after-sunset', ` (its sunset, ${day}, has passed)`]
    : ['operation-removed-before-sunset', ` before its sunset (${day})`]
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
    nesting: { depth: 0, inline: [0, 0], draining: false, later: [] },
  }
  const [bOps, hOps] = [operationsOf(b), operationsOf(h)]
  for (const [key, bOp] of bOps) {
    const hOp = hOps.get(key)
    out.operation = bOp.name
    if (hOp === undefined) {
      const [rule, why] = removal(bOp.node)
      out.emit(rule, 'base', bOp.ptr, `operation ${bOp.name} removed${why}`)
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
