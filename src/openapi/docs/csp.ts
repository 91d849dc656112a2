import { createHash } from 'node:crypto'

/** What a page's automatic Content-Security-Policy must allow. */
export interface CspSources {
  /** Where the UI's files come from: `'self'` (local assets) or the pinned package's CDN folder. */
  readonly assetOrigin: string
  /** The exact inline scripts of the page; each is allowed by its hash. */
  readonly inlineScripts: readonly string[]
  /** Origins the page may call besides its own (try-it-out against the spec's servers). */
  readonly connectOrigins: readonly string[]
  /** Origins of the logo and favicon, when they are absolute URLs. */
  readonly imageOrigins: readonly string[]
}

/** The CSP source for one inline script: `'sha256-<base64>'` of its exact text. */
export function scriptHash(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`
}

function unique(values: readonly string[]): string {
  return [...new Set(values)].join(' ')
}

/**
 * The automatic policy: nothing by default, scripts only from the asset origin and the page's own
 * hashed bootstrap (never `'unsafe-inline'`), styles from the asset origin plus inline styles (all
 * three UIs inject them), no plugins, no base URL, no forms, no framing.
 */
export function buildCsp(sources: CspSources): string {
  const origin = sources.assetOrigin
  return [
    "default-src 'none'",
    `script-src ${unique([origin, ...sources.inlineScripts.map(scriptHash)])}`,
    `style-src ${unique([origin, "'unsafe-inline'"])}`,
    `img-src ${unique(["'self'", 'data:', ...sources.imageOrigins])}`,
    `font-src ${unique([origin, 'data:'])}`,
    `connect-src ${unique(["'self'", ...sources.connectOrigins])}`,
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ')
}

/**
 * What the automatic policy adds for a page whose UI puts `nonce` on its style elements: style
 * elements only from the asset origin or with the nonce, no `style` attribute (a `<style>` or a
 * `style="…"` the spec's Markdown brings applies nowhere). Browsers without these CSP 3
 * directives keep to `style-src`.
 */
export function nonceStyles(assetOrigin: string, nonce: string): string {
  return `style-src-elem ${assetOrigin} 'nonce-${nonce}'; style-src-attr 'none'`
}

/** The policy sent with the spec JSON, the client exports and the asset files: nothing runs. */
export const FILE_CSP = "default-src 'none'; frame-ancestors 'none'"

// A CSP host source allows letters, digits, dots and dashes (and a port): an origin with anything
// else (a `{variable}`, a `;`) would be an invalid source, or a second directive.
const CSP_SAFE_ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:[0-9]{1,5})?$/

/** The http(s) origin of an absolute URL, or undefined for anything else (relative, javascript:). */
export function httpOrigin(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined
  try {
    const { origin } = new URL(url)
    return CSP_SAFE_ORIGIN.test(origin) ? origin : undefined
  } catch {
    return undefined
  }
}

// A server URL with `{variables}` is called with their defaults (OpenAPI 3 Server Object).
function withDefaults(server: { url?: unknown; variables?: unknown }): unknown {
  const { url, variables } = server
  if (typeof url !== 'string' || variables === null || typeof variables !== 'object') return url
  return url.replace(/\{([^{}]*)\}/g, (whole, name: string) => {
    const value = (variables as Record<string, { default?: unknown }>)[name]?.default
    return Object.hasOwn(variables, name) && typeof value === 'string' ? value : whole
  })
}

function objectsOf(value: unknown): object[] {
  if (value === null || typeof value !== 'object') return []
  return Object.values(value).filter((v): v is object => v !== null && typeof v === 'object')
}

// The URLs a page fetches for sign-in: OAuth2 token and refresh endpoints, OpenID discovery.
function authUrls(spec: object): unknown[] {
  const schemes = (spec as { components?: { securitySchemes?: unknown } }).components
    ?.securitySchemes
  const urls: unknown[] = []
  for (const scheme of objectsOf(schemes)) {
    urls.push((scheme as { openIdConnectUrl?: unknown }).openIdConnectUrl)
    for (const flow of objectsOf((scheme as { flows?: unknown }).flows)) {
      const { tokenUrl, refreshUrl } = flow as { tokenUrl?: unknown; refreshUrl?: unknown }
      urls.push(tokenUrl, refreshUrl)
    }
  }
  return urls
}

/**
 * The origins a page may call besides its own: the spec's absolute http(s) `servers[].url`s
 * (try-it-out) and its OAuth2 token, refresh and OpenID discovery URLs (sign-in).
 */
export function serverOrigins(spec: object): string[] {
  const servers = (spec as { servers?: unknown }).servers
  const urls: unknown[] = Array.isArray(servers)
    ? servers.map((s) => (s !== null && typeof s === 'object' ? withDefaults(s) : undefined))
    : []
  const origins: string[] = []
  for (const url of [...urls, ...authUrls(spec)]) {
    const origin = httpOrigin(url)
    if (origin !== undefined && !origins.includes(origin)) origins.push(origin)
  }
  return origins
}
