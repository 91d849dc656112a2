import { defineAdapter, type SchemaAdapter } from '../../engine/adapter.js'
import type { IRNode, IRProperty } from '../../engine/ir/types.js'

// What `health({ document: true })` puts in the OpenAPI document: each route marked as a route
// definition (core/route-mark.ts) the document finds, its success data written as IR, the 503
// NOT_READY of readiness declared. Without `document`, the routes carry no mark and the document
// never sees them.

const ok: IRNode = { kind: 'literal', safety: 'exact', values: ['ok'] }

const required = (key: string, value: IRNode): IRProperty => ({
  key,
  value,
  presence: 'required',
  outputOptional: false,
})

const object = (properties: IRProperty[], description: string): IRNode => ({
  kind: 'object',
  safety: 'exact',
  properties,
  unknownKeys: 'strip',
  meta: { description },
})

// An adapter around IR only: the document writes it, and nothing validates a health answer.
function adapterOf(ir: IRNode): SchemaAdapter {
  const schema = {}
  return defineAdapter({
    library: 'shapeguard',
    schema,
    ir,
    async: false,
    parse: (input) => ({ success: true, data: input }),
  })
}

/** The route definitions of the liveness and readiness routes, as the document reads them. */
export function healthRoutes(checkNames: readonly string[]): {
  readonly liveness: object
  readonly readiness: object
} {
  const checks = object(
    checkNames.map((name) => required(name, ok)),
    'Each readiness check by name; all passed.',
  )
  return {
    liveness: Object.freeze({
      summary: 'Liveness: the process answers',
      security: [],
      response: adapterOf(object([required('status', ok)], 'The process answers.')),
    }),
    readiness: Object.freeze({
      summary: 'Readiness: every check passes',
      description:
        'Answers 503 NOT_READY, naming the failing checks in details, when one fails or times out, and from the moment the server begins shutting down.',
      security: [],
      response: adapterOf(
        object([required('status', ok), required('checks', checks)], 'Every check passed.'),
      ),
      errors: Object.freeze(['NOT_READY']),
    }),
  }
}
