import { isObject } from '../../shared/is-object.js'
import type { DiffContext } from './context.js'
import { child, type Doc, objectAt } from './document.js'
import type { Operation } from './operations.js'

/** One way to authenticate: each scheme it needs, with its scopes. */
type Alternative = Map<string, Set<string>>

/** An operation's requirement: its own `security`, else the document's; none is anonymous. */
function requirementOf(doc: Doc, op: Operation): { alternatives: Alternative[]; ptr: string } {
  const own = Array.isArray(op.node.security)
  const list = own ? op.node.security : doc.root.security
  const ptr = own ? child(op.ptr, 'security') : '/security'
  if (!Array.isArray(list) || list.length === 0) return { alternatives: [new Map()], ptr }
  const alternatives = list.filter(isObject).map((requirement) => {
    const alternative: Alternative = new Map()
    for (const [scheme, scopes] of Object.entries(requirement))
      alternative.set(
        scheme,
        new Set(Array.isArray(scopes) ? scopes.filter((s) => typeof s === 'string') : []),
      )
    return alternative
  })
  return { alternatives, ptr }
}

// A client that meets `have` also meets `need` when `need` asks for nothing `have` lacks.
const meets = (have: Alternative, need: Alternative) =>
  [...need].every(([scheme, scopes]) => {
    const held = have.get(scheme)
    return held !== undefined && [...scopes].every((s) => held.has(s))
  })

/** Breaking when a way a client could authenticate under the base no longer suffices. */
export function compareSecurity(ctx: DiffContext, base: Operation, head: Operation): void {
  const b = requirementOf(ctx.base, base)
  const h = requirementOf(ctx.head, head)
  const lost = b.alternatives.find((have) => !h.alternatives.some((need) => meets(have, need)))
  if (lost === undefined) return
  if (lost.size === 0)
    ctx.out.emit('security-added', 'head', h.ptr, 'security added: credentials now required')
  else
    ctx.out.emit(
      'security-stricter',
      'head',
      h.ptr,
      `security stricter: the requirement ${[...lost.keys()].join(' + ')} no longer suffices`,
    )
}

const wireKeys = ['type', 'scheme', 'in', 'name', 'openIdConnectUrl'] as const

/** Security schemes kept under one name whose credentials travel differently. */
export function compareSecuritySchemes(ctx: DiffContext): void {
  const schemes = (doc: Doc) => {
    const components = doc.root.components
    return isObject(components) && isObject(components.securitySchemes)
      ? components.securitySchemes
      : {}
  }
  const [bs, hs] = [schemes(ctx.base), schemes(ctx.head)]
  for (const name of Object.keys(bs)) {
    if (!Object.hasOwn(hs, name)) continue
    const ptr = child('/components/securitySchemes', name)
    const b = objectAt(ctx.base, { node: bs[name], ptr })
    const h = objectAt(ctx.head, { node: hs[name], ptr })
    if (b === undefined || h === undefined) continue
    const norm = (v: unknown, key: string) =>
      (key === 'scheme' || key === 'type') && typeof v === 'string' ? v.toLowerCase() : v
    const changed = wireKeys.filter((k) => norm(b.node[k], k) !== norm(h.node[k], k))
    if (changed.length > 0)
      ctx.out.emit(
        'security-scheme-changed',
        'head',
        h.ptr,
        `security scheme ${name}: ${changed.join(', ')} changed`,
      )
  }
}
