import { libraryAccepts } from '../../arbitrary/arbitrary.js'
import { edgesOf } from '../../arbitrary/ir-edges.js'
import { fastCheck } from '../../load-fast-check.js'
import type { FuzzRequest } from '../fuzz-request.js'
import type { Part } from '../wire.js'
import { distinct, type PhaseInput, partRequest } from './phase-input.js'

// A route's boundary requests past this many are not sent (a note says so).
export const MAX_BOUNDARIES = 400

const parts: readonly Part[] = ['params', 'query', 'headers', 'body', 'cookies', 'signedCookies']

/**
 * The boundaries phase of a route: for every rule of every part's schema, a request on each of
 * its edges (ir-edges.ts), the other parts as the base request has them; valid edges must not get
 * a 422, invalid ones must get one naming the field. The same list for the same route every run.
 */
export function boundaryRequests(input: PhaseInput): FuzzRequest[] {
  const out: (FuzzRequest | undefined)[] = []
  for (const part of parts) {
    const adapter = input.adapters[part]
    if (adapter?.ir === undefined) continue
    const { caps, notes } = input.reach(part)
    const ctx = { fc: fastCheck(), at: part, recursions: new Map(), rounds: 0, caps, notes }
    // No body at all, where one is required: the part's own "required field absent".
    if (part === 'body' && !input.multipart && libraryAccepts(adapter, undefined) === false)
      out.push(partRequest(input, part, undefined, { path: [], deep: false, valid: false }))
    for (const edge of edgesOf(adapter.ir, input.base[part], ctx))
      out.push(partRequest(input, part, edge.value, edge))
  }
  const requests = distinct(out)
  if (requests.length > MAX_BOUNDARIES)
    input.notes.add(
      `boundaries: the first ${MAX_BOUNDARIES} of ${requests.length} edge requests sent`,
    )
  return requests.slice(0, MAX_BOUNDARIES)
}
