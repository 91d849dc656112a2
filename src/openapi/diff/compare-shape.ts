import type { DiffContext, Direction } from './context.js'
import { child, type Slot } from './document.js'
import type { SchemaView } from './schema-view.js'

type Recurse = (
  ctx: DiffContext,
  base: Slot,
  head: Slot,
  direction: Direction,
  label: string,
) => void

// A readOnly property is never sent, a writeOnly one never read: neither matters that way.
function unused(
  ctx: DiffContext,
  b: Slot | undefined,
  h: Slot | undefined,
  dir: Direction,
): boolean {
  const keyword = dir === 'request' ? 'readOnly' : 'writeOnly'
  const view = h !== undefined ? ctx.headSchema(h) : ctx.baseSchema(b!)
  return view.keywords[keyword] === true
}

/** Compares what nests: properties, `additionalProperties`, `items`, `oneOf`/`anyOf` branches. */
export function compareShape(
  ctx: DiffContext,
  b: SchemaView,
  h: SchemaView,
  dir: Direction,
  label: string,
  recurse: Recurse,
): void {
  const names = new Set([...b.props.keys(), ...h.props.keys(), ...b.required, ...h.required])
  for (const name of names) {
    const [bp, hp] = [b.props.get(name), h.props.get(name)]
    if ((bp !== undefined || hp !== undefined) && unused(ctx, bp, hp, dir)) continue
    const at = `${label}.${name}`
    if (dir === 'request') compareRequestProperty(ctx, b, h, name, at)
    else compareResponseProperty(ctx, b, h, name, at)
    if (bp !== undefined && hp !== undefined) recurse(ctx, bp, hp, dir, at)
  }
  compareAdditional(ctx, b, h, dir, label, recurse)
  if (b.items !== undefined && h.items !== undefined)
    recurse(ctx, b.items, h.items, dir, `${label}[]`)
  compareBranches(ctx, b, h, dir, label, recurse)
}

function compareRequestProperty(
  ctx: DiffContext,
  b: SchemaView,
  h: SchemaView,
  name: string,
  at: string,
): void {
  const [bp, hp] = [b.props.get(name), h.props.get(name)]
  const [bRequired, hRequired] = [b.required.has(name), h.required.has(name)]
  const headPtr = hp?.ptr ?? child(h.ptr, 'required')
  if (bp === undefined && hp !== undefined && !bRequired) {
    if (hRequired)
      ctx.out.emit(
        'request-property-added-required',
        'head',
        headPtr,
        `request \`${at}\`: new required property`,
      )
    else
      ctx.out.emit(
        'request-property-added',
        'head',
        headPtr,
        `request \`${at}\`: new optional property`,
      )
    return
  }
  if (bp !== undefined && hp === undefined && !hRequired) {
    if (h.additional === false)
      ctx.out.emit(
        'request-property-refused',
        'base',
        bp.ptr,
        `request \`${at}\`: property removed and additionalProperties is false`,
      )
    else
      ctx.out.emit(
        'request-property-removed',
        'base',
        bp.ptr,
        `request \`${at}\`: property removed`,
      )
    return
  }
  if (hRequired && !bRequired)
    ctx.out.emit(
      'request-property-became-required',
      'head',
      headPtr,
      `request \`${at}\`: became required`,
    )
}

function compareResponseProperty(
  ctx: DiffContext,
  b: SchemaView,
  h: SchemaView,
  name: string,
  at: string,
): void {
  const [bp, hp] = [b.props.get(name), h.props.get(name)]
  const [bRequired, hRequired] = [b.required.has(name), h.required.has(name)]
  if (bp === undefined && hp !== undefined) {
    ctx.out.emit('response-property-added', 'head', hp.ptr, `response \`${at}\`: new property`)
    return
  }
  if (bp !== undefined && hp === undefined && !hRequired) {
    if (bRequired)
      ctx.out.emit(
        'response-required-property-removed',
        'base',
        bp.ptr,
        `response \`${at}\`: required property removed`,
      )
    else
      ctx.out.emit(
        'response-optional-property-removed',
        'base',
        bp.ptr,
        `response \`${at}\`: optional property removed`,
      )
    return
  }
  if (bRequired && !hRequired)
    ctx.out.emit(
      'response-property-became-optional',
      'head',
      hp?.ptr ?? h.ptr,
      `response \`${at}\`: no longer required`,
    )
}

function compareAdditional(
  ctx: DiffContext,
  b: SchemaView,
  h: SchemaView,
  dir: Direction,
  label: string,
  recurse: Recurse,
): void {
  const objects = (v: SchemaView) => v.types === undefined || v.types.has('object')
  if (!objects(b) || !objects(h)) return
  if (dir === 'request' && b.additional !== false && h.additional === false)
    ctx.out.emit(
      'request-additional-properties-closed',
      'head',
      child(h.ptr, 'additionalProperties'),
      `request \`${label}\`: additionalProperties closed`,
    )
  if (dir === 'response' && b.additional === false && h.additional !== false)
    ctx.out.emit(
      'response-additional-properties-opened',
      'head',
      h.additional === undefined ? h.ptr : h.additional.ptr,
      `response \`${label}\`: additionalProperties opened`,
    )
  if (b.additional && h.additional) recurse(ctx, b.additional, h.additional, dir, `${label}{}`)
}

/** The component a branch names (`$ref`), if it names one. */
function refOf(ctx: DiffContext, slot: Slot, side: 'base' | 'head'): string | undefined {
  const located = (side === 'base' ? ctx.base : ctx.head).follow(slot)
  return located.ref === undefined ? undefined : located.ptr
}

const branchName = (ctx: DiffContext, slot: Slot, side: 'base' | 'head', i: number) =>
  (side === 'base' ? ctx.baseSchema(slot) : ctx.headSchema(slot)).name ?? `#${i}`

/**
 * Branches are matched by the component they name, the rest by position. A request breaks when
 * a base branch has no match, a response when a head branch has none; against a plain schema,
 * each branch of the union is compared with it (a union widens a response only through a
 * branch its clients do not know, and narrows a request only through a branch it refuses).
 */
function compareBranches(
  ctx: DiffContext,
  b: SchemaView,
  h: SchemaView,
  dir: Direction,
  label: string,
  recurse: Recurse,
): void {
  if (b.branches === undefined && h.branches === undefined) return
  // Against one plain schema, a branch naming another component is gone (or new), not reshaped.
  if (h.branches === undefined) {
    if (dir === 'request')
      b.branches!.forEach((slot, i) => {
        const ref = refOf(ctx, slot, 'base')
        const name = branchName(ctx, slot, 'base', i)
        if (ref !== undefined && h.via !== undefined && ref !== h.via)
          ctx.out.emit(
            'request-union-branch-removed',
            'base',
            slot.ptr,
            `request \`${label}\`: oneOf/anyOf branch ${name} removed`,
          )
        else recurse(ctx, slot, h.slot, dir, `${label}|${name}`)
      })
    return
  }
  if (b.branches === undefined) {
    if (dir === 'response')
      h.branches.forEach((slot, i) => {
        const ref = refOf(ctx, slot, 'head')
        const name = branchName(ctx, slot, 'head', i)
        if (ref !== undefined && b.via !== undefined && ref !== b.via)
          ctx.out.emit(
            'response-union-branch-added',
            'head',
            slot.ptr,
            `response \`${label}\`: oneOf/anyOf branch ${name} added`,
          )
        else recurse(ctx, b.slot, slot, dir, `${label}|${name}`)
      })
    return
  }
  const headByRef = new Map<string, Slot>()
  const headLeft: Slot[] = []
  for (const slot of h.branches) {
    const ref = refOf(ctx, slot, 'head')
    if (ref !== undefined && !headByRef.has(ref)) headByRef.set(ref, slot)
    else headLeft.push(slot)
  }
  const baseLeft: Slot[] = []
  b.branches.forEach((slot, i) => {
    const ref = refOf(ctx, slot, 'base')
    const match = ref === undefined ? undefined : headByRef.get(ref)
    if (match === undefined) baseLeft.push(slot)
    else {
      headByRef.delete(ref!)
      recurse(ctx, slot, match, dir, `${label}|${branchName(ctx, slot, 'base', i)}`)
    }
  })
  headLeft.push(...headByRef.values())
  baseLeft.forEach((slot, i) => {
    const match = headLeft[i]
    if (match !== undefined)
      recurse(ctx, slot, match, dir, `${label}|${branchName(ctx, slot, 'base', i)}`)
    else if (dir === 'request')
      ctx.out.emit(
        'request-union-branch-removed',
        'base',
        slot.ptr,
        `request \`${label}\`: oneOf/anyOf branch ${branchName(ctx, slot, 'base', i)} removed`,
      )
  })
  if (dir === 'response')
    headLeft.slice(baseLeft.length).forEach((slot, i) => {
      ctx.out.emit(
        'response-union-branch-added',
        'head',
        slot.ptr,
        `response \`${label}\`: oneOf/anyOf branch ${branchName(ctx, slot, 'head', baseLeft.length + i)} added`,
      )
    })
}
