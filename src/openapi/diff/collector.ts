import { printable } from '../../shared/printable.js'
import { FindingsBelow } from './reach.js'
import { type DiffRule, diffRules } from './rules.js'
import type { DiffFinding } from './types.js'

interface Pending {
  readonly rule: DiffRule
  readonly document: 'base' | 'head'
  readonly pointer: string
  readonly reason: string
  readonly operations: Set<string>
}

/** A pair of schemas compared: the findings made there and the pairs compared inside it. */
export interface Pair {
  readonly found: Set<Pending>
  readonly inner: Set<Pair>
  /** Until its comparison ends (or for good, when part of it was put off for later). */
  open: boolean
}

// A pair compared whole that found nothing and leads nowhere: crediting can skip it.
const idle = (pair: Pair) => !pair.open && pair.found.size === 0 && pair.inner.size === 0

/** What an operation reached: the findings made outside any pair, and its outermost pairs. */
interface Reach {
  readonly found: Set<Pending>
  readonly pairs: Set<Pair>
}

const rank = { breaking: 0, warning: 1, info: 2 } as const

// Names in a message come from the documents: printable() writes a control character or a line
// separator in one as \uXXXX, so a message stays one line and no line of a report (a CI log reads
// `::` at a line's start as a command) starts with a document's text.

/**
 * Gathers findings once per rule and place. A shared schema is compared once per pair of
 * places: the pairs form a graph (each pair links the pairs compared inside it, also those met
 * again), and a finding is credited to every operation from which its pair can be reached, so a
 * change to a component used by 300 operations is one finding that names them, and a `$ref`
 * cycle ends where it meets a pair under comparison. The graph keeps memory linear in the
 * document; crediting reads it once (src/openapi/diff/reach.ts), so a chain of thousands of
 * `$ref`s under thousands of operations costs each operation a step, not the chain.
 */
export class Collector {
  #found = new Map<string, Pending>()
  #pairs = new Map<string, Pair>()
  #reach = new Map<string, Reach>()
  #open: Pair[] = []
  // Pairs part of whose comparison was put off: never taken for idle.
  #later = new Set<Pair>()
  /** The operation being compared (`GET /users/{id}`), credited with what is emitted. */
  operation: string | undefined

  #reached(): Reach | undefined {
    if (this.operation === undefined) return undefined
    let reach = this.#reach.get(this.operation)
    if (reach === undefined) {
      reach = { found: new Set(), pairs: new Set() }
      this.#reach.set(this.operation, reach)
    }
    return reach
  }

  emit(rule: DiffRule, document: 'base' | 'head', pointer: string, reason: string): void {
    const key = `${rule} ${document} ${pointer}`
    let finding = this.#found.get(key)
    if (finding === undefined) {
      finding = { rule, document, pointer, reason, operations: new Set() }
      this.#found.set(key, finding)
    }
    const open = this.#open.at(-1)
    if (open !== undefined) open.found.add(finding)
    else this.#reached()?.found.add(finding)
  }

  /** Starts comparing the pair `key`; false when it was (or is being) compared already. */
  enter(key: string): boolean {
    const known = this.#pairs.get(key)
    const pair = known ?? { found: new Set(), inner: new Set(), open: true }
    const open = this.#open.at(-1)
    if (known !== undefined && idle(known)) return false
    if (open !== undefined) open.inner.add(pair)
    else this.#reached()?.pairs.add(pair)
    if (known !== undefined) return false
    this.#pairs.set(key, pair)
    this.#open.push(pair)
    return true
  }

  leave(): void {
    const pair = this.#open.pop()!
    if (this.#later.has(pair)) return
    pair.open = false
    for (const inner of pair.inner) if (idle(inner)) pair.inner.delete(inner)
  }

  /** The innermost pair under comparison, where a comparison put off for later belongs. */
  putOff(): Pair | undefined {
    const pair = this.#open.at(-1)
    if (pair !== undefined) this.#later.add(pair)
    return pair
  }

  /** Runs `compare` as if `pair` (from `innermost()`) were the pair under comparison. */
  within(pair: Pair | undefined, compare: () => void): void {
    const outer = this.#open
    this.#open = pair === undefined ? [] : [pair]
    try {
      compare()
    } finally {
      this.#open = outer
    }
  }

  // Each operation, in the order they were compared, credited with what it reaches: the pair
  // graph is read once, then each operation walks the shared nodes below its outermost pairs.
  #credit(): void {
    const below = new FindingsBelow(
      [...this.#reach.values()].flatMap((reach) => [...reach.pairs]),
      (pair: Pair) => pair.inner,
      (pair) => pair.found,
    )
    for (const [operation, reach] of this.#reach) {
      for (const finding of reach.found) finding.operations.add(operation)
      for (const finding of below.from(reach.pairs)) finding.operations.add(operation)
    }
  }

  /** The findings, breaking first, then by document order of their pointers. */
  findings(): DiffFinding[] {
    this.#credit()
    return [...this.#found.values()]
      .map((f): DiffFinding => {
        const operations = [...f.operations]
        const more = operations.length > 1 ? ` and ${operations.length - 1} more operations` : ''
        const where =
          operations.length > 0 && !f.reason.includes(operations[0]!)
            ? ` (${operations[0]}${more})`
            : ''
        return {
          level: diffRules[f.rule].level,
          rule: f.rule,
          document: f.document,
          pointer: f.pointer,
          message: printable(`${f.reason}${where}`),
          operations,
        }
      })
      .sort((a, b) => rank[a.level] - rank[b.level])
  }
}
