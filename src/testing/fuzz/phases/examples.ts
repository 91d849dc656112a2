import { libraryAccepts } from '../../arbitrary/arbitrary.js'
import { examplesOf } from '../../arbitrary/ir-examples.js'
import type { FuzzRequest } from '../fuzz-request.js'
import type { Part } from '../wire.js'
import { distinct, type PhaseInput, partRequest } from './phase-input.js'

const parts: readonly Part[] = ['params', 'query', 'headers', 'body', 'cookies', 'signedCookies']

/**
 * The examples phase of a route: one request per example (or default) the schemas give, built
 * into the base request (the other parts from a valid value drawn with a fixed seed), then one
 * with every part's first example together. An example the schema itself rejects is sent as
 * nothing and named in a note: the schema's documentation is wrong, not the app.
 */
export function exampleRequests(input: PhaseInput): FuzzRequest[] {
  const out: (FuzzRequest | undefined)[] = []
  let together = { ...input.base }
  for (const part of parts) {
    const adapter = input.adapters[part]
    if (adapter?.ir === undefined) continue
    const values = examplesOf(adapter.ir, input.base[part])
    values.forEach((value, i) => {
      if (libraryAccepts(adapter, value) === false) {
        input.notes.add(`examples: ${part}'s example ${i + 1} is rejected by its own schema`)
        return
      }
      const req = partRequest(input, part, value, { path: [], deep: false, valid: true })
      if (req === undefined) return
      if (i === 0) together = { ...together, [part]: value }
      out.push(req)
    })
  }
  if (out.length > 1) out.unshift(input.build('valid', together))
  return distinct(out)
}
