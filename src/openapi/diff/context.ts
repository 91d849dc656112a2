import type { Collector } from './collector.js'
import type { Doc, Slot } from './document.js'
import type { SchemaView } from './schema-view.js'

/** What a client does with a schema: sends it (a request) or reads it (a response). */
export type Direction = 'request' | 'response'

/** The two documents being compared and where findings go. */
export interface DiffContext {
  readonly base: Doc
  readonly head: Doc
  readonly baseSchema: (slot: Slot) => SchemaView
  readonly headSchema: (slot: Slot) => SchemaView
  readonly out: Collector
}
