import type { Collector } from './collector.js'
import type { Doc, Slot } from './document.js'
import type { SchemaView } from './schema-view.js'

/** What a client does with a schema: sends it (a request) or reads it (a response). */
export type Direction = 'request' | 'response'

/**
 * How deep schema comparisons nest. `depth` counts them on the stack: past `maxStack` a pair is
 * compared later, from the top of the stack, so a `$ref` path through thousands of components is
 * compared whole without running out of stack (GitHub's and Stripe's documents reach 10 and 36).
 * `inline` counts, for the base and the head, the schemas nested in place since the last `$ref`:
 * past `maxInline` a pair is not compared (a `schema-too-deep` finding says so), which keeps a
 * hostile document from nesting thousands of levels with pointers that grow with each one. The
 * limits are in limits.ts.
 */
export interface Nesting {
  depth: number
  inline: readonly [number, number]
  draining: boolean
  readonly later: (() => void)[]
}

/** The two documents being compared and where findings go. */
export interface DiffContext {
  readonly base: Doc
  readonly head: Doc
  readonly baseSchema: (slot: Slot) => SchemaView
  readonly headSchema: (slot: Slot) => SchemaView
  readonly out: Collector
  readonly nesting: Nesting
}
