import { isObject } from '../../shared/is-object.js'
import { compareSchema } from './compare-schema.js'
import type { DiffContext } from './context.js'
import { child, type Doc, type Slot } from './document.js'
import type { Operation } from './operations.js'

interface Parameter {
  readonly node: Record<string, unknown>
  readonly ptr: string
  readonly shown: string
}

// OpenAPI ignores these header parameters: content negotiation and credentials have their own fields.
const ignoredHeaders = new Set(['accept', 'content-type', 'authorization'])

/** An operation's parameters by identity: a path parameter by its place in the path. */
function parametersOf(doc: Doc, op: Operation): Map<string, Parameter> {
  const own = Array.isArray(op.node.parameters)
    ? op.node.parameters.map((node, i) => ({ node, ptr: child(op.ptr, 'parameters', i) }))
    : []
  const found = new Map<string, Parameter>()
  for (const slot of [...op.shared, ...own]) {
    const located = doc.follow(slot)
    const p = located.node
    if (!isObject(p) || typeof p.name !== 'string' || typeof p.in !== 'string') continue
    const name = p.in === 'header' ? p.name.toLowerCase() : p.name
    if (p.in === 'header' && ignoredHeaders.has(name)) continue
    const position = p.in === 'path' ? op.templateNames.indexOf(p.name) : -1
    const key = p.in === 'path' && position >= 0 ? `path #${position}` : `${p.in} ${name}`
    found.set(key, { node: p, ptr: located.ptr, shown: `${p.in} parameter ${p.name}` })
  }
  return found
}

/** A parameter's schema: `schema`, else the schema of its one `content` entry. */
function schemaSlot(p: Parameter): Slot | undefined {
  if (isObject(p.node.schema)) return { node: p.node.schema, ptr: child(p.ptr, 'schema') }
  if (!isObject(p.node.content)) return undefined
  const [type] = Object.keys(p.node.content)
  const media = type === undefined ? undefined : p.node.content[type]
  return isObject(media) && isObject(media.schema)
    ? { node: media.schema, ptr: child(p.ptr, 'content', type!, 'schema') }
    : undefined
}

const required = (p: Parameter) => p.node.required === true || p.node.in === 'path'

export function compareParameters(ctx: DiffContext, base: Operation, head: Operation): void {
  const [bs, hs] = [parametersOf(ctx.base, base), parametersOf(ctx.head, head)]
  for (const [key, b] of bs) {
    const h = hs.get(key)
    if (h === undefined) {
      ctx.out.emit('request-parameter-removed', 'base', b.ptr, `${b.shown} removed`)
      continue
    }
    if (required(h) && !required(b))
      ctx.out.emit('request-parameter-became-required', 'head', h.ptr, `${h.shown} became required`)
    const [bSchema, hSchema] = [schemaSlot(b), schemaSlot(h)]
    if (bSchema !== undefined && hSchema !== undefined)
      compareSchema(ctx, bSchema, hSchema, 'request', h.shown)
  }
  for (const [key, h] of hs) {
    if (bs.has(key)) continue
    if (required(h))
      ctx.out.emit(
        'request-parameter-added-required',
        'head',
        h.ptr,
        `${h.shown} added as required`,
      )
    else ctx.out.emit('request-parameter-added', 'head', h.ptr, `${h.shown} added`)
  }
}
