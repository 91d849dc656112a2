import * as v from 'valibot'
import * as y from 'yup'
import { peerMode } from './peers.js'

// What the installed peer versions offer, where the lowest a peer range allows
// (`npm run test:peers`, test/support/peers.ts) lacks something a test uses.

/** yup schemas implement Standard Schema from yup 1.7: before, a bare one is refused. */
export const yupIsStandard = '~standard' in y.string()

/** yup's object().exact() and object().stripUnknown(), from yup 1.5. */
export const yupHasExact =
  typeof (y.object() as unknown as { exact?: unknown }).exact === 'function'

/** yup's string().datetime(), from yup 1.4. */
export const yupHasDatetime =
  typeof (y.string() as unknown as { datetime?: unknown }).datetime === 'function'

/** valibot's toNumber() action, from valibot 1.2. */
export const valibotHasToNumber =
  typeof (v as unknown as { toNumber?: unknown }).toNumber === 'function'

/** valibot's examples() metadata action, which valibot 1.0 lacks. */
export const valibotHasExamples =
  typeof (v as unknown as { examples?: unknown }).examples === 'function'

/**
 * Builds every entry of a table (a library's checks, one per key). Under SHAPEGUARD_PEERS=lowest
 * an entry the older peer lacks (`v.domain is not a function`) is left out; with the newest peers
 * every entry must build.
 */
export function buildAvailable<T>(table: Record<string, () => T>): Record<string, T> {
  const built: Record<string, T> = {}
  for (const [key, build] of Object.entries(table)) {
    try {
      built[key] = build()
    } catch (error) {
      const missing = error instanceof TypeError && /is not a function/.test(error.message)
      if (!missing || peerMode() !== 'lowest') throw error
    }
  }
  return built
}
