import type { IRNode } from '../ir/types.js'
import { children } from '../ir/visit.js'
import { type RegexRisk, regexRisk } from './regex-risk.js'

/** A pattern the schema's author wrote that the regex screen flags, and where it is. */
export interface RiskyPattern {
  /** The field path inside the part (`address.zip`, `tags.*`), empty at the root. */
  readonly path: string
  readonly pattern: RegExp
  readonly risk: RegexRisk
}

// Patterns written by the schema's author (`.regex()`, `.matches()`, `v.regex()`, template
// literals); the libraries' built-in formats are audited once, not per route.
const authored = new Set(['regex', 'template_literal'])

const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key))

/**
 * The author-written patterns of an IR tree that {@link regexRisk} flags, with their paths.
 * @param path the path of `node` itself; default the root
 * @example riskyPatterns(zodToIR(z.object({ a: z.string().regex(/^(a+)+$/) }))) // [{ path: 'a', … }]
 */
export function riskyPatterns(node: IRNode, path = ''): RiskyPattern[] {
  const out: RiskyPattern[] = []
  if (node.kind === 'string')
    for (const c of node.checks) {
      if (c.kind !== 'pattern' || !authored.has(c.format)) continue
      const risk = regexRisk(c.pattern)
      if (risk) out.push({ path, pattern: c.pattern, risk })
    }
  for (const { key, node: child } of children(node))
    out.push(...riskyPatterns(child, key === undefined ? path : join(path, key)))
  return out
}
