/** The three docs UIs shapeguard serves. */
export type DocsUi = 'swagger' | 'scalar' | 'redoc'

/**
 * Where a docs page loads its UI files from: its installed optional package when there is one, else
 * the CDN (`'auto'`, the default); always the CDN (`'cdn'`); always the package (`'local'`).
 */
export type DocsAssets = 'auto' | 'cdn' | 'local'

/** One file a UI needs in the page. */
export interface UiAssetFile {
  /** Path inside the package, also the file's name under `<mount>/assets/`. */
  readonly path: string
  readonly kind: 'script' | 'style'
  /** SRI of the pinned version's file (`sha384-…`), checked against the installed package by a test. */
  readonly integrity: string
}

/** A UI's package, the version the CDN serves, and its files. */
export interface UiPackage {
  readonly name: string
  readonly label: string
  readonly version: string
  readonly files: readonly UiAssetFile[]
}

/** The one CDN origin docs pages load from when they do not serve the UI's files themselves. */
export const CDN_ORIGIN = 'https://cdn.jsdelivr.net'

// Versions are pinned: an SRI hash names one exact file. Redoc stays on major 2, whose standalone
// bundle is a classic script (Redoc 3 ships an ES module).
export const UI_PACKAGES: Readonly<Record<DocsUi, UiPackage>> = Object.freeze({
  swagger: {
    name: 'swagger-ui-dist',
    label: 'Swagger UI',
    version: '5.17.14',
    files: [
      {
        path: 'swagger-ui.css',
        kind: 'style',
        integrity: 'sha384-wxLW6kwyHktdDGr6Pv1zgm/VGJh99lfUbzSn6HNHBENZlCN7W602k9VkGdxuFvPn',
      },
      {
        path: 'swagger-ui-bundle.js',
        kind: 'script',
        integrity: 'sha384-wmyclcVGX/WhUkdkATwhaK1X1JtiNrr2EoYJ+diV3vj4v6OC5yCeSu+yW13SYJep',
      },
    ],
  },
  scalar: {
    name: '@scalar/api-reference',
    label: 'Scalar',
    version: '1.72.1',
    files: [
      {
        path: 'dist/browser/standalone.js',
        kind: 'script',
        integrity: 'sha384-U11tb2XnKvmwt8RlTvnwUnYgrN+ur4Xyh9htLhjajWNR/Oyl5AX5DEz00qRmlrmK',
      },
    ],
  },
  redoc: {
    name: 'redoc',
    label: 'Redoc',
    version: '2.5.1',
    files: [
      {
        path: 'bundles/redoc.standalone.js',
        kind: 'script',
        integrity: 'sha384-up2uPEo+8XzxuLXKGY4DOk79DbbRclvlcx22QZ60aPWQf8LW69XJ8BWzLFewC05H',
      },
    ],
  },
})

/**
 * The CSP source a CDN page loads its UI from: the pinned package's folder on the CDN, not the
 * whole CDN, so a script of any other package there (an attacker can publish one) cannot run.
 */
export function cdnSource(ui: DocsUi): string {
  const pkg = UI_PACKAGES[ui]
  return `${CDN_ORIGIN}/npm/${pkg.name}@${pkg.version}/`
}

/** The CDN address of one pinned file. */
export function cdnUrl(pkg: UiPackage, file: UiAssetFile): string {
  return `${CDN_ORIGIN}/npm/${pkg.name}@${pkg.version}/${file.path}`
}

/** The major version of a pinned package, as `npm install <name>@<major>` takes it. */
export function majorOf(version: string): string {
  return version.split('.')[0] ?? version
}
