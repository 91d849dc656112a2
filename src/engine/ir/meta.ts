import type { IRMeta, IRNode } from './types.js'

/** A library's documentation fields, read as they come (any of them may be absent or mistyped). */
export interface MetaFields {
  readonly id?: unknown
  readonly title?: unknown
  readonly description?: unknown
  readonly examples?: unknown
  readonly deprecated?: unknown
}

/**
 * The documentation of a node from the fields a library holds: only well-typed ones are kept
 * (strings: `id` non-empty, an examples array, `deprecated: true`); undefined when none is.
 * @example readMeta({ description: 'Page size', examples: [20] })
 */
export function readMeta(fields: MetaFields): IRMeta | undefined {
  const out: { -readonly [K in keyof IRMeta]: IRMeta[K] } = {}
  if (typeof fields.id === 'string' && fields.id !== '') out.id = fields.id
  if (typeof fields.title === 'string') out.title = fields.title
  if (typeof fields.description === 'string') out.description = fields.description
  if (Array.isArray(fields.examples)) out.examples = fields.examples
  if (fields.deprecated === true) out.deprecated = true
  return Object.keys(out).length > 0 ? out : undefined
}

/**
 * The node with `meta` laid over the documentation it already has (the outer schema's fields win).
 * @example withMeta(node, readMeta({ title: 'User' }))
 */
export function withMeta<N extends IRNode>(node: N, meta: IRMeta | undefined): N {
  return meta === undefined ? node : { ...node, meta: { ...node.meta, ...meta } }
}
