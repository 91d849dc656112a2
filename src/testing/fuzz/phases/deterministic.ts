import type { Arbitrary } from 'fast-check'
import { unprefixed } from '../../../shared/error-codes.js'
import { fastCheck } from '../../load-fast-check.js'
import type { Parts } from '../assemble.js'
import type { FuzzRequest } from '../fuzz-request.js'
import { boundaryRequests } from './boundaries.js'
import { exampleRequests } from './examples.js'
import type { PhaseInput } from './phase-input.js'

// The base request is drawn with this seed whatever the run's: the phases' lists never change.
const BASE_SEED = 48

/** The smallest of a few valid parts drawn with a fixed seed, or undefined when none can be. */
function baseParts(valid: Arbitrary<Parts>): Parts {
  const size = (p: Parts) => JSON.stringify({ ...p, files: p.files?.length })?.length ?? 0
  const drawn = fastCheck().sample(valid, { numRuns: 5, seed: BASE_SEED })
  return drawn.reduce((a, b) => (size(b) < size(a) ? b : a))
}

/** The requests of the deterministic phases, examples then boundaries (none without valid parts). */
export function deterministicPhases(
  valid: Arbitrary<Parts> | undefined,
  phases: ReadonlySet<string>,
  input: Omit<PhaseInput, 'base'>,
): { examples: FuzzRequest[]; boundaries: FuzzRequest[] } {
  const examples = phases.has('examples')
  const boundaries = phases.has('boundaries')
  if (valid === undefined || !(examples || boundaries)) return { examples: [], boundaries: [] }
  try {
    const full = { ...input, base: baseParts(valid) }
    return {
      examples: examples ? exampleRequests(full) : [],
      boundaries: boundaries ? boundaryRequests(full) : [],
    }
  } catch (error) {
    input.notes.add(`no examples or boundaries: ${unprefixed((error as Error).message)}`)
    return { examples: [], boundaries: [] }
  }
}
