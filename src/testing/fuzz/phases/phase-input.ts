import type { SchemaAdapter } from '../../../engine/adapter.js'
import type { Reach } from '../../arbitrary/arbitrary.js'
import type { Parts } from '../assemble.js'
import type { FuzzRequest } from '../fuzz-request.js'
import type { Build } from '../special-requests.js'
import type { Part } from '../wire.js'

/** What the deterministic phases build a route's requests from. */
export interface PhaseInput {
  readonly adapters: Partial<Record<Part, SchemaAdapter>>
  /** One valid request's parts, the same every run (a fixed seed): what an edge leaves as is. */
  readonly base: Parts
  readonly build: Build
  readonly reach: (part: Part) => Reach
  /** Whether a part's value still gets `accepted` from its library after the trip over HTTP. */
  readonly travels: (part: Part, value: unknown, accepted: boolean) => boolean
  /** What an invalid request says is broken, as the random phase's say it. */
  readonly broken: (
    part: Part,
    value: unknown,
    path: readonly (string | number)[],
    deep: boolean,
  ) => NonNullable<FuzzRequest['broken']>
  readonly multipart: boolean
  readonly notes: Set<string>
}

/**
 * The request for one part's value in place of the base's, the library deciding its kind: valid
 * when it accepts the value after the trip over HTTP, invalid (naming `path`) when it rejects one
 * meant invalid; undefined for a value meant valid that it rejects (a refinement the IR cannot
 * see) and for one that cannot travel.
 */
export function partRequest(
  input: PhaseInput,
  part: Part,
  value: unknown,
  edge: {
    readonly path: readonly (string | number)[]
    readonly deep: boolean
    readonly valid: boolean
  },
): FuzzRequest | undefined {
  const parts = { ...input.base, [part]: value }
  if (input.multipart && part === 'body' && value === undefined) return undefined
  if (input.travels(part, value, true)) return input.build('valid', parts)
  if (edge.valid || !input.travels(part, value, false)) return undefined
  return input.build('invalid', parts, { broken: input.broken(part, value, edge.path, edge.deep) })
}

/** The requests once each (the same URL, headers and body are sent once), in order. */
export function distinct(requests: readonly (FuzzRequest | undefined)[]): FuzzRequest[] {
  const seen = new Set<string>()
  const out: FuzzRequest[] = []
  for (const r of requests) {
    if (r === undefined) continue
    const key = JSON.stringify([r.kind, r.url, r.headers, String(r.body)])
    if (seen.has(key)) continue
    seen.add(key)
    out.push(r)
  }
  return out
}
