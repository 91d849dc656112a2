import type * as FastCheck from 'fast-check'
import { loadPeer } from '../runtime/core/load-peer.js'

/** The fast-check module, as `import * as fc from 'fast-check'` gives it. */
export type FC = typeof FastCheck

let loaded: FC | undefined

/**
 * fast-check, loaded on first use: an optional peer that only `arbitrary()` and `fuzzRoutes()`
 * need. A missing package is a clear error naming it, never a crash at import time.
 */
export function fastCheck(): FC {
  loaded ??= loadPeer<FC>('fast-check', 'arbitrary() and fuzzRoutes() (shapeguard/testing)', true)
  return loaded
}
