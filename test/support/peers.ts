import { readFileSync } from 'node:fs'
import Module from 'node:module'
import { fileURLToPath } from 'node:url'

/**
 * Which peer versions a run tests: the newest (the packages under their own names, the default)
 * or, with `SHAPEGUARD_PEERS=lowest` (`npm run test:peers`), the lowest each peer range allows.
 * The lowest are installed beside the newest as npm aliases (`"zod-lowest": "npm:zod@4.6.2"` in
 * devDependencies), and vitest.config.ts maps every import of a peer, subpaths included, to its
 * alias. Express 5 stays the newest 5 in both modes; the Express 4 host (`express4`) becomes the
 * lowest Express 4.
 */
export type PeerMode = 'lowest' | 'newest'

export function peerMode(env: NodeJS.ProcessEnv = process.env): PeerMode {
  const mode = env.SHAPEGUARD_PEERS ?? 'newest'
  if (mode !== 'lowest' && mode !== 'newest') {
    throw new Error(`SHAPEGUARD_PEERS must be "lowest" or "newest", not ${JSON.stringify(mode)}`)
  }
  return mode
}

export interface Peer {
  /** The name code and tests import it by. */
  readonly specifier: string
  /** The package on the registry (and the key in peerDependencies). */
  readonly package: string
  /** The devDependency alias that holds the lowest version, `npm:<package>@<version>`. */
  readonly lowest: string
  /** The major of the peer range `lowest` belongs to (Express 4 and 5 are tested apart). */
  readonly major?: number
}

export const peers: readonly Peer[] = [
  { specifier: 'zod', package: 'zod', lowest: 'zod-lowest' },
  { specifier: 'valibot', package: 'valibot', lowest: 'valibot-lowest' },
  { specifier: 'yup', package: 'yup', lowest: 'yup-lowest' },
  { specifier: 'pino', package: 'pino', lowest: 'pino-lowest' },
  { specifier: 'winston', package: 'winston', lowest: 'winston-lowest' },
  { specifier: 'ioredis', package: 'ioredis', lowest: 'ioredis-lowest' },
  { specifier: 'redis', package: 'redis', lowest: 'redis-lowest' },
  { specifier: 'express4', package: 'express', lowest: 'express-lowest', major: 4 },
]

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * vitest `resolve.alias` entries for a mode: none for the newest; for the lowest, each peer's
 * name and its subpaths (`zod/v4/core`, `zod/mini`) to the same path in its alias. They apply to
 * src/ and test/ files (and anything else vite transforms); what vite leaves to Node is for
 * `peerEnv`.
 */
export function peerAliases(mode: PeerMode): Array<{ find: RegExp; replacement: string }> {
  if (mode === 'newest') return []
  return peers.map((peer) => ({
    find: new RegExp(`^${escapeRegExp(peer.specifier)}(?=/|$)`),
    replacement: peer.lowest,
  }))
}

/**
 * What vitest.config.ts adds to process.env for a mode, to reach what vite's aliases do not:
 * NODE_OPTIONS loads test/support/peers-hook.mjs (Node's own module resolution, which vitest's
 * workers inherit and hand on to every node process a test starts) with the same mapping in
 * SHAPEGUARD_PEER_ALIASES. Nothing for the newest. Needs `module.registerHooks` (Node 22.15+).
 */
export function peerEnv(mode: PeerMode, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (mode === 'newest') return {}
  if (typeof (Module as { registerHooks?: unknown }).registerHooks !== 'function') {
    throw new Error(
      `SHAPEGUARD_PEERS=lowest needs Node 22.15 or later (module.registerHooks), not ${process.version}`,
    )
  }
  const hook = fileURLToPath(new URL('./peers-hook.mjs', import.meta.url))
  const options = env.NODE_OPTIONS ?? ''
  return {
    SHAPEGUARD_PEER_ALIASES: peers.map((peer) => `${peer.specifier}=${peer.lowest}`).join(','),
    NODE_OPTIONS: options.includes(hook)
      ? options
      : `${options} --import ${JSON.stringify(hook)}`.trim(),
  }
}

const manifest = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as {
  peerDependencies: Record<string, string>
  devDependencies: Record<string, string>
}

/** The exact version a lowest alias pins (`npm:zod@4.6.2` → `4.6.2`). */
export function pinnedLowest(peer: Peer): string {
  const spec = manifest.devDependencies[peer.lowest]
  const match =
    spec && new RegExp(`^npm:${escapeRegExp(peer.package)}@(\\d+\\.\\d+\\.\\d+)$`).exec(spec)
  if (!match) {
    throw new Error(
      `devDependencies["${peer.lowest}"] must pin npm:${peer.package}@<x.y.z>, not ${spec}`,
    )
  }
  return match[1]!
}

/**
 * The lowest version the peerDependencies range allows (within `peer.major` if set). Only caret
 * ranges joined by `||` are understood (`^4.21 || ^5` → 4.21.0); anything else throws, so a
 * change of style is noticed here rather than tested against a wrong pin.
 */
export function rangeLowest(peer: Peer): string {
  const range = manifest.peerDependencies[peer.package]
  if (!range) throw new Error(`peerDependencies has no ${peer.package}`)
  const lows = range.split('||').map((part) => {
    const match = /^\^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(part.trim())
    if (!match) throw new Error(`peerDependencies["${peer.package}"]: cannot read ${part}`)
    return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)] as const
  })
  const wanted = lows.filter(([major]) => peer.major === undefined || major === peer.major)
  wanted.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2])
  const low = wanted[0]
  if (!low) throw new Error(`peerDependencies["${peer.package}"] has no ^${peer.major} range`)
  return low.join('.')
}

/**
 * The installed package (its folder under node_modules, and its version) that holds a resolved
 * module file: `/…/node_modules/zod-lowest/index.cjs` → `{ folder: 'zod-lowest', version: '4.6.2' }`.
 */
export function owningPackage(file: string): { folder: string; version: string } {
  const match = /.*[\\/]node_modules[\\/]([^\\/]+)[\\/]/.exec(file)
  if (!match) throw new Error(`${file} is not in node_modules`)
  return { folder: match[1]!, version: installedVersion(match[1]!) }
}

/** The version of the package installed under `name` in node_modules. */
export function installedVersion(name: string): string {
  const url = new URL(`../../node_modules/${name}/package.json`, import.meta.url)
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version
}
