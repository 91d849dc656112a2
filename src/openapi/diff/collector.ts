import { type DiffRule, diffRules } from './rules.js'
import type { DiffFinding } from './types.js'

interface Pending {
  readonly rule: DiffRule
  readonly document: 'base' | 'head'
  readonly pointer: string
  readonly reason: string
  readonly operations: Set<string>
}

const rank = { breaking: 0, warning: 1, info: 2 } as const

/**
 * Gathers findings once per rule and place. A shared schema is compared once per pair of
 * places: when another operation reaches the same pair, the findings already made there are
 * credited to that operation too, so a change to a component used by 300 operations is one
 * finding that names them, and a `$ref` cycle ends where it meets a pair under comparison.
 */
export class Collector {
  #found = new Map<string, Pending>()
  #done = new Map<string, Set<Pending>>()
  #open: Set<Pending>[] = []
  /** The operation being compared (`GET /users/{id}`), credited with what is emitted. */
  operation: string | undefined

  emit(rule: DiffRule, document: 'base' | 'head', pointer: string, reason: string): void {
    const key = `${rule} ${document} ${pointer}`
    let finding = this.#found.get(key)
    if (finding === undefined) {
      finding = { rule, document, pointer, reason, operations: new Set() }
      this.#found.set(key, finding)
    }
    this.#credit(finding)
  }

  #credit(finding: Pending): void {
    if (this.operation !== undefined) finding.operations.add(this.operation)
    for (const open of this.#open) open.add(finding)
  }

  /** Starts comparing the pair `key`; false when it was (or is being) compared already. */
  enter(key: string): boolean {
    const done = this.#done.get(key)
    if (done !== undefined) {
      for (const finding of done) this.#credit(finding)
      return false
    }
    const open = new Set<Pending>()
    this.#done.set(key, open)
    this.#open.push(open)
    return true
  }

  leave(): void {
    this.#open.pop()
  }

  /** The findings, breaking first, then by document order of their pointers. */
  findings(): DiffFinding[] {
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
          message: `${f.reason}${where}`,
          operations,
        }
      })
      .sort((a, b) => rank[a.level] - rank[b.level])
  }
}
