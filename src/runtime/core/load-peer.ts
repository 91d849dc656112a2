import { createRequire } from 'node:module'
import { join } from 'node:path'
import { optionError } from '../../shared/error-codes.js'

let peerRequire: NodeJS.Require | undefined

// One `require` that resolves optional peers next to the installed package, in both builds.
// The ESM build has `import.meta.url`; the CJS build has an empty `import.meta` but `__filename`.
// `typeof require` is not used: bundlers replace `require` in ESM output with a stub that throws.
function getRequire(): NodeJS.Require {
  if (peerRequire) return peerRequire
  const url = (import.meta as { url?: string }).url
  const base =
    url ?? (typeof __filename === 'string' ? __filename : join(process.cwd(), 'index.js'))
  peerRequire = createRequire(base)
  return peerRequire
}

function isMissing(error: unknown, name: string): boolean {
  const e = error as { code?: unknown; message?: unknown } | null
  return (
    e?.code === 'MODULE_NOT_FOUND' &&
    typeof e.message === 'string' &&
    e.message.includes(`'${name}'`)
  )
}

/** Loads an optional peer, or returns undefined when it is not installed (other errors throw). */
export function tryLoadPeer<T>(name: string): T | undefined {
  try {
    return getRequire()(name) as T
  } catch (error) {
    if (isMissing(error, name)) return undefined
    throw error
  }
}

/**
 * Loads an optional peer the user asked for; a clear error names the package when it is missing,
 * and how to install it (`-D` for one only tests use).
 */
export function loadPeer<T>(name: string, feature: string, dev = false): T {
  const loaded = tryLoadPeer<T>(name)
  if (loaded === undefined) {
    throw optionError(
      'SG_ERR_PEER_MISSING',
      `shapeguard: ${feature}: needs the optional package "${name}", which is not installed, ` +
        `install it with: npm install ${dev ? '-D ' : ''}${name}`,
    )
  }
  return loaded
}
