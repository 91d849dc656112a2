/**
 * The findings below a strongly connected component of the graph: its `found` and those below
 * each of its `parts`. A component that adds nothing (no findings of its own, one node below)
 * shares that node, so a `$ref` chain thousands long leads to one node, not thousands.
 */
interface Below<F> {
  readonly found: readonly F[]
  readonly parts: readonly Below<F>[]
}

// A node holds up to this many findings and parts: below it, the nodes under a component are
// read into it (one level), so a chain whose links each also reach one large changed component
// holds that component once per link, not a chain of links to walk.
const few = 32
const size = (below: Below<unknown>) => below.found.length + below.parts.length

/**
 * The strongly connected components of the nodes reachable from `roots`, each after every
 * component it reaches (Tarjan's algorithm, in a loop: a graph may be thousands deep).
 */
export function components<N>(roots: Iterable<N>, next: (node: N) => Iterable<N>): N[][] {
  const index = new Map<N, number>()
  const low = new Map<N, number>()
  const stack: N[] = []
  const onStack = new Set<N>()
  const found: N[][] = []
  const path: [N, Iterator<N>][] = []
  const open = (node: N) => {
    low.set(node, index.size)
    index.set(node, index.size)
    stack.push(node)
    onStack.add(node)
    path.push([node, next(node)[Symbol.iterator]()])
  }
  for (const root of roots) {
    if (!index.has(root)) open(root)
    while (path.length > 0) {
      const [node, inner] = path.at(-1)!
      const step = inner.next()
      if (step.done !== true) {
        if (!index.has(step.value)) open(step.value)
        else if (onStack.has(step.value))
          low.set(node, Math.min(low.get(node)!, index.get(step.value)!))
        continue
      }
      path.pop()
      const parent = path.at(-1)?.[0]
      if (parent !== undefined) low.set(parent, Math.min(low.get(parent)!, low.get(node)!))
      if (low.get(node) !== index.get(node)) continue
      const component: N[] = []
      for (let top = stack.pop()!; ; top = stack.pop()!) {
        onStack.delete(top)
        component.push(top)
        if (top === node) break
      }
      found.push(component)
    }
  }
  return found
}

/**
 * The findings each node reachable from `roots` leads to. The graph is read once, into shared
 * nodes; `from(starts)` walks the nodes below its starts, not the graph.
 */
export class FindingsBelow<N, F> {
  /** How many shared nodes `from` walked, all calls together: what crediting costs. */
  walked = 0
  // null: nothing below. A component's successors come before it: a node not yet set is in it.
  readonly #of = new Map<N, Below<F> | null>()

  constructor(roots: Iterable<N>, next: (node: N) => Iterable<N>, found: (node: N) => Iterable<F>) {
    for (const component of components(roots, next)) {
      const own = new Set<F>()
      const kids = new Set<Below<F>>()
      for (const node of component) {
        for (const finding of found(node)) own.add(finding)
        for (const inner of next(node)) {
          const kid = this.#of.get(inner)
          if (kid) kids.add(kid)
        }
      }
      const below =
        own.size === 0 && kids.size <= 1 ? (kids.values().next().value ?? null) : node(own, kids)
      for (const member of component) this.#of.set(member, below)
    }
  }

  /** The findings of the nodes reachable from `starts` (nodes reachable from the roots). */
  from(starts: Iterable<N>): Set<F> {
    const reached = new Set<F>()
    const seen = new Set<Below<F>>()
    const todo: Below<F>[] = []
    const visit = (below: Below<F> | null | undefined) => {
      if (!below || seen.has(below)) return
      seen.add(below)
      todo.push(below)
    }
    for (const start of starts) visit(this.#of.get(start))
    for (let below = todo.pop(); below !== undefined; below = todo.pop()) {
      this.walked++
      for (const finding of below.found) reached.add(finding)
      for (const part of below.parts) visit(part)
    }
    return reached
  }
}

/** A component's node: its findings and each small node below read in, or else linked. */
function node<F>(own: Set<F>, kids: Set<Below<F>>): Below<F> {
  const found = new Set(own)
  const parts = new Set<Below<F>>()
  for (const kid of kids)
    if (size(kid) > few) parts.add(kid)
    else {
      for (const finding of kid.found) found.add(finding)
      for (const part of kid.parts) parts.add(part)
    }
  return found.size + parts.size <= few
    ? { found: [...found], parts: [...parts] }
    : { found: [...own], parts: [...kids] }
}
