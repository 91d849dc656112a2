import { isObject } from '../../shared/is-object.js'
import { boundMoves } from './bounds.js'
import { compareShape } from './compare-shape.js'
import type { DiffContext, Direction } from './context.js'
import { child, type Slot } from './document.js'
import { maxInline, maxStack } from './limits.js'
import type { SchemaView } from './schema-view.js'

// Formats that only widen: a value of the first is a value of the second.
const widerFormat: Readonly<Record<string, string>> = { int32: 'int64', float: 'double' }
// Formats that name the widest width of a JSON number: adding one refuses nothing.
const widthOnly = new Set<unknown>(['int64', 'double'])

const accepts = (types: Set<string> | undefined, type: string) =>
  types === undefined || types.has(type) || (type === 'integer' && types.has('number'))

/** Whether `wide` allows every type `narrow` allows. */
function covers(wide: Set<string> | undefined, narrow: Set<string> | undefined): boolean {
  if (wide === undefined) return true
  if (narrow === undefined) return false
  return [...narrow].every((t) => accepts(wide, t))
}

const typeList = (types: Set<string> | undefined) =>
  types === undefined ? 'any type' : [...types].join(', ') || 'nothing'

/**
 * Compares the schema at `base` with the one at `head` as `direction` uses it: a request breaks
 * when the head accepts less, a response when it may hold more. `label` names the place in
 * messages (`body.items[].name`); a component resets it to the component's name.
 */
export function compareSchema(
  ctx: DiffContext,
  base: Slot,
  head: Slot,
  direction: Direction,
  label: string,
): void {
  const nesting = ctx.nesting
  const inline = nesting.inline
  if (nesting.depth >= maxStack) {
    const pair = ctx.out.putOff()
    nesting.later.push(() =>
      ctx.out.within(pair, () => {
        const outer = nesting.inline
        nesting.inline = inline
        try {
          compareSchema(ctx, base, head, direction, label)
        } finally {
          nesting.inline = outer
        }
      }),
    )
    return
  }
  const first = nesting.depth === 0 && !nesting.draining
  nesting.depth++
  // A `$ref` starts a schema of its own place (a component): the count in place starts again.
  nesting.inline = [isRef(base.node) ? 0 : inline[0] + 1, isRef(head.node) ? 0 : inline[1] + 1]
  try {
    comparePair(ctx, base, head, direction, label)
  } finally {
    nesting.depth--
    nesting.inline = inline
  }
  if (!first || nesting.later.length === 0) return
  // What was put off runs now, one after another, each from the top of the stack again.
  nesting.draining = true
  try {
    for (let i = 0; i < nesting.later.length; i++) nesting.later[i]!()
  } finally {
    nesting.later.length = 0
    nesting.draining = false
  }
}

const isRef = (node: unknown) => isObject(node) && typeof node.$ref === 'string'

function comparePair(
  ctx: DiffContext,
  base: Slot,
  head: Slot,
  direction: Direction,
  label: string,
): void {
  const b = ctx.baseSchema(base)
  const h = ctx.headSchema(head)
  if (Math.max(...ctx.nesting.inline) > maxInline || b.tooDeep || h.tooDeep) {
    ctx.out.emit(
      'schema-too-deep',
      'head',
      h.ptr,
      `${direction} \`${label}\`: nested over ${maxInline} schemas deep, not compared below`,
    )
    return
  }
  if (!ctx.out.enter(`${direction} ${b.ptr} ${h.ptr}`)) return
  try {
    compareViews(ctx, b, h, direction, h.name ?? b.name ?? label)
  } finally {
    ctx.out.leave()
  }
}

function compareViews(
  ctx: DiffContext,
  b: SchemaView,
  h: SchemaView,
  dir: Direction,
  label: string,
): void {
  if (b.opaque !== undefined || h.opaque !== undefined) return
  const out = ctx.out
  const request = dir === 'request'
  if (request && b.nullable && !h.nullable)
    out.emit(
      'request-nullable-removed',
      'head',
      h.ptr,
      `request \`${label}\`: null no longer accepted`,
    )
  if (!request && !b.nullable && h.nullable)
    out.emit('response-nullable-added', 'head', h.ptr, `response \`${label}\`: may now be null`)
  // A union's type, values and bounds are its branches': compareShape compares those.
  if (b.branches === undefined && h.branches === undefined) {
    const [narrow, wide] = request ? [h, b] : [b, h]
    if (!covers(narrow.types, wide.types))
      out.emit(
        `${dir}-type-changed`,
        'head',
        h.ptr,
        `${dir} \`${label}\`: type changed from ${typeList(b.types)} to ${typeList(h.types)}`,
      )
    compareEnum(ctx, b, h, dir, label)
    for (const [keyword, move] of boundMoves(b.keywords, h.keywords)) {
      const inHead = keyword in h.keywords
      if (request && move === 'tighter')
        out.emit(
          'request-bound-tightened',
          'head',
          child(h.ptr, keyword),
          `request \`${label}\`: ${keyword} tightened`,
        )
      if (!request && move === 'looser')
        out.emit(
          'response-bound-loosened',
          inHead ? 'head' : 'base',
          child(inHead ? h.ptr : b.ptr, keyword),
          `response \`${label}\`: ${keyword} ${inHead ? 'loosened' : 'removed'}`,
        )
    }
    compareText(ctx, b, h, dir, label)
  }
  compareShape(ctx, b, h, dir, label, compareSchema)
}

function compareEnum(
  ctx: DiffContext,
  b: SchemaView,
  h: SchemaView,
  dir: Direction,
  label: string,
): void {
  const missing = (from: Set<string>, to: Set<string>) => [...from].filter((v) => !to.has(v)).length
  if (dir === 'request') {
    if (h.enum === undefined) return
    if (b.enum === undefined)
      ctx.out.emit(
        'request-enum-value-removed',
        'head',
        h.ptr,
        `request \`${label}\`: enum added, other values refused`,
      )
    else {
      const removed = missing(b.enum, h.enum)
      if (removed > 0)
        ctx.out.emit(
          'request-enum-value-removed',
          'head',
          h.ptr,
          `request \`${label}\`: enum lost ${removed} member${removed === 1 ? '' : 's'}`,
        )
      const added = missing(h.enum, b.enum)
      if (added > 0)
        ctx.out.emit(
          'request-enum-value-added',
          'head',
          h.ptr,
          `request \`${label}\`: enum gained ${added} member${added === 1 ? '' : 's'}`,
        )
    }
    return
  }
  if (b.enum === undefined) return
  if (h.enum === undefined) {
    ctx.out.emit(
      'response-enum-value-added',
      'head',
      h.ptr,
      `response \`${label}\`: enum removed, any value may come`,
    )
    return
  }
  const added = missing(h.enum, b.enum)
  if (added > 0)
    ctx.out.emit(
      'response-enum-value-added',
      'head',
      h.ptr,
      `response \`${label}\`: enum gained ${added} member${added === 1 ? '' : 's'}`,
    )
}

function compareText(
  ctx: DiffContext,
  b: SchemaView,
  h: SchemaView,
  dir: Direction,
  label: string,
): void {
  const [bf, hf] = [b.keywords.format, h.keywords.format]
  const [bp, hp] = [b.keywords.pattern, h.keywords.pattern]
  if (dir === 'request') {
    const widened = typeof bf === 'string' ? widerFormat[bf] === hf : widthOnly.has(hf)
    if (hf !== undefined && hf !== bf && !widened)
      ctx.out.emit(
        'request-format-changed',
        'head',
        child(h.ptr, 'format'),
        `request \`${label}\`: format ${bf === undefined ? 'added' : 'changed'}`,
      )
    if (hp !== undefined && hp !== bp)
      ctx.out.emit(
        'request-pattern-changed',
        'head',
        child(h.ptr, 'pattern'),
        `request \`${label}\`: pattern ${bp === undefined ? 'added' : 'changed'}`,
      )
    return
  }
  const narrowed = typeof hf === 'string' ? widerFormat[hf] === bf : widthOnly.has(bf)
  if (bf !== undefined && bf !== hf && !narrowed)
    ctx.out.emit(
      'response-format-changed',
      hf === undefined ? 'base' : 'head',
      child(hf === undefined ? b.ptr : h.ptr, 'format'),
      `response \`${label}\`: format ${hf === undefined ? 'removed' : 'changed'}`,
    )
  if (bp !== undefined && bp !== hp)
    ctx.out.emit(
      'response-pattern-changed',
      hp === undefined ? 'base' : 'head',
      child(hp === undefined ? b.ptr : h.ptr, 'pattern'),
      `response \`${label}\`: pattern ${hp === undefined ? 'removed' : 'changed'}`,
    )
}
