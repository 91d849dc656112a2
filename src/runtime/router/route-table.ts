// A segment table over a host router's layer stack. It answers one question: which layers could
// match a request path? It over-approximates on purpose (every static segment compared in lower
// case, a parameter taken to match any segment, trailing slashes ignored): the host still matches
// every layer it is handed with its own compiled pattern, so the table only has to never leave out
// a layer that matches. Layers it cannot read (middleware of use(), a RegExp, a pattern with
// wildcards, optional parts or a parameter inside a segment) are handed over on every request.

/** The members of an Express 4 or 5 layer the table reads. */
interface HostLayer {
  readonly route?: { readonly path?: unknown } | undefined
}

interface TableNode {
  statics: Map<string, TableNode> | undefined
  param: TableNode | undefined
  /** Stack positions of the routes whose pattern ends here, ascending. */
  readonly ends: number[]
}

/** The table of one router's stack, as it was when last indexed. */
export interface RouteTable {
  stack: readonly unknown[]
  /** How many layers of `stack` are indexed, and the last of them (to notice a replaced stack). */
  length: number
  last: unknown
  root: TableNode
  /** Stack positions handed over on every request, ascending. */
  always: number[]
  /** The most segments of any indexed pattern: a longer path can only meet `always`. */
  depth: number
}

// A static segment both path syntaxes read as plain text: no parameter, wildcard, group,
// quantifier, escape or anchor of path-to-regexp 0.1 (Express 4) or 8 (Express 5).
const literal = /^[A-Za-z0-9_.~%@,;=&'-]*$/
// A whole segment that is one parameter with a name both syntaxes read the same way.
const param = /^:[A-Za-z_][A-Za-z0-9_]*$/

const newNode = (): TableNode => ({ statics: undefined, param: undefined, ends: [] })

/** An empty table for `stack`; `refresh` indexes it. */
export function emptyTable(stack: readonly unknown[]): RouteTable {
  return { stack, length: 0, last: undefined, root: newNode(), always: [], depth: 0 }
}

/**
 * Brings the table up to date with `stack`: indexes the layers added since the last call, or
 * starts over when the stack was replaced or shortened. Returns the table to use.
 */
export function refresh(table: RouteTable, stack: readonly unknown[]): RouteTable {
  const length = stack.length
  if (table.stack === stack && table.length === length && table.last === stack[length - 1])
    return table
  let current = table
  if (
    table.stack !== stack ||
    length < table.length ||
    (table.length > 0 && stack[table.length - 1] !== table.last)
  )
    current = emptyTable(stack)
  for (let i = current.length; i < length; i++) index(current, stack[i] as HostLayer, i)
  current.length = length
  current.last = stack[length - 1]
  return current
}

function index(table: RouteTable, layer: HostLayer, at: number): void {
  const patterns = layer?.route === undefined ? undefined : segmentsOf(layer.route.path)
  if (patterns === undefined) {
    table.always.push(at)
    return
  }
  for (const segments of patterns) {
    let node = table.root
    for (const segment of segments) {
      if (segment === undefined) node = node.param ??= newNode()
      else {
        node.statics ??= new Map()
        let next = node.statics.get(segment)
        if (next === undefined) {
          next = newNode()
          node.statics.set(segment, next)
        }
        node = next
      }
    }
    // Two patterns of one route can end at the same node.
    if (node.ends[node.ends.length - 1] !== at) node.ends.push(at)
    if (segments.length > table.depth) table.depth = segments.length
  }
}

/**
 * The segments of each pattern of a route path (a string or an array of them), in lower case,
 * `undefined` standing for a parameter; `undefined` when any pattern cannot be indexed.
 */
function segmentsOf(path: unknown): (string | undefined)[][] | undefined {
  const paths = Array.isArray(path) ? path.flat(Infinity) : [path]
  const out: (string | undefined)[][] = []
  for (const p of paths) {
    if (typeof p !== 'string' || p[0] !== '/') return undefined
    const trimmed = trimEnd(p)
    const segments: (string | undefined)[] = []
    for (const segment of trimmed === '/' ? [] : trimmed.slice(1).split('/')) {
      if (param.test(segment)) segments.push(undefined)
      else if (literal.test(segment)) segments.push(segment.toLowerCase())
      else return undefined
    }
    out.push(segments)
  }
  return out
}

// Both hosts let a route match with one trailing slash more or fewer than the pattern (unless
// `strict`), and Express 5 strips every trailing slash of a pattern: the table ignores them all.
function trimEnd(path: string): string {
  let end = path.length
  while (end > 1 && path.charCodeAt(end - 1) === 0x2f) end--
  return end === path.length ? path : path.slice(0, end)
}

/**
 * The stack positions that could match `pathname` (the raw path, starting with `/`), ascending
 * and each once: the indexed routes whose segments fit, and the layers handed over always.
 */
export function lookup(table: RouteTable, pathname: string): readonly number[] {
  const trimmed = trimEnd(pathname)
  const segments = trimmed.length === 1 ? [] : trimmed.slice(1).toLowerCase().split('/')
  if (segments.length > table.depth) return table.always
  const found: number[][] = []
  collect(table.root, segments, 0, found)
  if (found.length === 0) return table.always
  if (table.always.length === 0 && found.length === 1) return found[0]!
  if (table.always.length > 0) found.push(table.always)
  const merged = found.flat().sort((a, b) => a - b)
  let n = 0
  for (let i = 0; i < merged.length; i++)
    if (i === 0 || merged[i] !== merged[n - 1]) merged[n++] = merged[i]!
  merged.length = n
  return merged
}

// Each node is reached at most once per lookup (a tree, one depth per segment), so the walk is
// bounded by the table's size as well as by the path's length.
function collect(node: TableNode, segments: string[], i: number, found: number[][]): void {
  if (i === segments.length) {
    if (node.ends.length > 0) found.push(node.ends)
    return
  }
  const next = node.statics?.get(segments[i]!)
  if (next !== undefined) collect(next, segments, i + 1, found)
  if (node.param !== undefined) collect(node.param, segments, i + 1, found)
}
