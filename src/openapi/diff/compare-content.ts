import { isObject } from '../../shared/is-object.js'
import { compareSchema } from './compare-schema.js'
import type { DiffContext, Direction } from './context.js'
import { child, type Doc, objectAt, type Slot } from './document.js'
import type { Operation } from './operations.js'

type Located = { node: Record<string, unknown>; ptr: string }

/** The media types of a request body or response, by lower-cased type without parameters. */
function mediaTypes(body: Located): Map<string, Slot & { type: string }> {
  const types = new Map<string, Slot & { type: string }>()
  if (!isObject(body.node.content)) return types
  for (const type of Object.keys(body.node.content))
    types.set(type.split(';')[0]!.trim().toLowerCase(), {
      type,
      node: body.node.content[type],
      ptr: child(body.ptr, 'content', type),
    })
  return types
}

// `application/json` is still served where the head answers `application/*` or `*/*`.
function covered(types: Map<string, unknown>, type: string): string | undefined {
  if (types.has(type)) return type
  const range = `${type.split('/')[0]}/*`
  return types.has(range) ? range : types.has('*/*') ? '*/*' : undefined
}

/** Compares the media types of two bodies and the schema of each kept one. */
function compareContent(
  ctx: DiffContext,
  b: Located,
  h: Located,
  dir: Direction,
  label: string,
): void {
  const [bt, ht] = [mediaTypes(b), mediaTypes(h)]
  const shown = dir === 'request' ? 'request body' : `response ${label}`
  for (const [type, bm] of bt) {
    const key = covered(ht, type)
    const hm = key === undefined ? undefined : ht.get(key)!
    if (hm === undefined) {
      ctx.out.emit(
        `${dir}-media-type-removed`,
        'base',
        bm.ptr,
        `${shown}: media type ${bm.type} removed`,
      )
      continue
    }
    if (
      isObject(bm.node) &&
      isObject(hm.node) &&
      bm.node.schema !== undefined &&
      hm.node.schema !== undefined
    )
      compareSchema(
        ctx,
        { node: bm.node.schema, ptr: child(bm.ptr, 'schema') },
        { node: hm.node.schema, ptr: child(hm.ptr, 'schema') },
        dir,
        label,
      )
  }
  for (const [type, hm] of ht)
    if (!bt.has(type))
      ctx.out.emit(
        `${dir}-media-type-added`,
        'head',
        hm.ptr,
        `${shown}: media type ${hm.type} added`,
      )
}

const bodyOf = (doc: Doc, op: Operation) =>
  op.node.requestBody === undefined
    ? undefined
    : objectAt(doc, { node: op.node.requestBody, ptr: child(op.ptr, 'requestBody') })

export function compareRequestBody(ctx: DiffContext, base: Operation, head: Operation): void {
  const [b, h] = [bodyOf(ctx.base, base), bodyOf(ctx.head, head)]
  if (h === undefined) {
    if (b !== undefined) ctx.out.emit('request-body-removed', 'base', b.ptr, 'request body removed')
    return
  }
  const required = h.node.required === true
  if (b === undefined) {
    if (required)
      ctx.out.emit('request-body-added-required', 'head', h.ptr, 'request body added as required')
    return
  }
  if (required && b.node.required !== true)
    ctx.out.emit('request-body-became-required', 'head', h.ptr, 'request body became required')
  compareContent(ctx, b, h, 'request', 'body')
}

function responsesOf(doc: Doc, op: Operation): Map<string, Located> {
  const found = new Map<string, Located>()
  const responses = op.node.responses
  if (!isObject(responses)) return found
  for (const status of Object.keys(responses)) {
    const response = objectAt(doc, {
      node: responses[status],
      ptr: child(op.ptr, 'responses', status),
    })
    if (response !== undefined) found.set(status.toUpperCase(), response)
  }
  return found
}

// A status the head still answers: itself, its range (`2XX`), or `default`.
function answered(responses: Map<string, Located>, status: string): Located | undefined {
  return responses.get(status) ?? responses.get(`${status[0]}XX`) ?? responses.get('DEFAULT')
}

export function compareResponses(ctx: DiffContext, base: Operation, head: Operation): void {
  const [bs, hs] = [responsesOf(ctx.base, base), responsesOf(ctx.head, head)]
  for (const [status, b] of bs) {
    const h = answered(hs, status)
    if (h === undefined) {
      const success = status.startsWith('2')
      ctx.out.emit(
        success ? 'response-success-status-removed' : 'response-non-success-status-removed',
        'base',
        b.ptr,
        `response ${status.toLowerCase()} removed`,
      )
      continue
    }
    compareContent(ctx, b, h, 'response', status.toLowerCase())
  }
  for (const [status, h] of hs)
    if (!bs.has(status))
      ctx.out.emit('response-status-added', 'head', h.ptr, `response ${status.toLowerCase()} added`)
}
