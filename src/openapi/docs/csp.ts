import { createHash } from 'node:crypto'

/** What a page's automatic Content-Security-Policy must allow. */
export interface CspSources {
  /** Where the UI's files come from: `'self'` (local assets) or the CDN origin. */
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

/** The policy sent with the spec JSON, the client exports and the asset files: nothing runs. */
export const FILE_CSP = "default-src 'none'; frame-ancestors 'none'"

/** The http(s) origin of an absolute URL, or undefined for anything else (relative, javascript:). */
export function httpOrigin(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : undefined
  } catch {
    return undefined
  }
}

/** The origins of a spec's absolute http(s) `servers[].url`s, so try-it-out may call them. */
export function serverOrigins(spec: object): string[] {
  const servers = (spec as { servers?: unknown }).servers
  if (!Array.isArray(servers)) return []
  const origins: string[] = []
  for (const server of servers) {
    const origin = httpOrigin((server as { url?: unknown } | null)?.url)
    if (origin !== undefined) origins.push(origin)
  }
  return origins
}
