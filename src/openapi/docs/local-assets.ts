import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, join } from 'node:path'
import { optionError } from '../../shared/error-codes.js'
import { type DocsAssets, type DocsUi, majorOf, UI_PACKAGES, type UiAssetFile } from './assets.js'

/** One UI file read from the installed package, ready to send. */
export interface LocalAsset {
  readonly file: UiAssetFile
  /** Path below the docs mount: `assets/<content hash>/<name>`, so it may be cached forever. */
  readonly urlPath: string
  readonly body: Buffer
  readonly contentType: string
  readonly etag: string
  /** SRI of the installed file. */
  readonly integrity: string
}

const loaded = new Map<DocsUi, readonly LocalAsset[]>()

// The directories Node would search for a bare package name, from this file's location; the
// CJS build has an empty `import.meta` but `__filename` (see runtime/core/load-peer.ts).
function packageDir(name: string): string | undefined {
  const url = (import.meta as { url?: string }).url
  const base =
    url ?? (typeof __filename === 'string' ? __filename : join(process.cwd(), 'index.js'))
  const paths = createRequire(base).resolve.paths(name) ?? []
  for (const dir of paths) {
    if (existsSync(join(dir, name, 'package.json'))) return join(dir, name)
  }
  return undefined
}

function readAsset(dir: string, file: UiAssetFile): LocalAsset {
  const body = readFileSync(join(dir, file.path))
  const sha256 = createHash('sha256').update(body).digest('base64url')
  return {
    file,
    urlPath: `assets/${sha256.slice(0, 12)}/${basename(file.path)}`,
    body,
    contentType:
      file.kind === 'script' ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
    etag: `"${sha256}"`,
    integrity: `sha384-${createHash('sha384').update(body).digest('base64')}`,
  }
}

/**
 * Reads a UI's files from its installed package, once per process; a missing package is an error
 * naming it, raised when the docs middleware is created.
 */
export function loadLocalAssets(ui: DocsUi): readonly LocalAsset[] {
  const cached = loaded.get(ui)
  if (cached) return cached
  const pkg = UI_PACKAGES[ui]
  const dir = packageDir(pkg.name)
  if (dir === undefined) {
    throw optionError(
      'SG_ERR_PEER_MISSING',
      `shapeguard: ${pkg.label} with local assets: serves its files from the optional package ` +
        `"${pkg.name}", which is not installed, install it with: npm install ${pkg.name}@${majorOf(pkg.version)}`,
    )
  }
  const assets = pkg.files.map((file) => {
    try {
      return readAsset(dir, file)
    } catch {
      throw optionError(
        'SG_ERR_PEER_INCOMPATIBLE',
        `shapeguard: ${pkg.label} with local assets: needs ${pkg.name}/${file.path}, which the ` +
          `installed "${pkg.name}" does not have, install a compatible version: npm install ${pkg.name}@${majorOf(pkg.version)}`,
      )
    }
  })
  loaded.set(ui, assets)
  return assets
}

function installedVersion(dir: string): unknown {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version
  } catch {
    return undefined
  }
}

/**
 * The UI's files a page serves itself in an assets mode, or undefined when it loads them from the
 * CDN. `'auto'` serves the installed package when it is the pinned major version with every file
 * (another major may lay out or load its files otherwise); `'local'` throws without the package.
 */
export function chooseLocalAssets(ui: DocsUi, mode: DocsAssets): readonly LocalAsset[] | undefined {
  if (mode === 'local') return loadLocalAssets(ui)
  if (mode === 'cdn') return undefined
  const pkg = UI_PACKAGES[ui]
  const dir = packageDir(pkg.name)
  const version = dir === undefined ? undefined : installedVersion(dir)
  if (typeof version !== 'string' || majorOf(version) !== majorOf(pkg.version)) return undefined
  try {
    return loadLocalAssets(ui)
  } catch {
    return undefined
  }
}
