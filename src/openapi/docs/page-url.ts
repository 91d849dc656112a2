import type { Request } from 'express'

// Characters a path segment may keep as they are; anything else is percent-encoded again, so the
// prefix can never carry a quote, a scheme or a second path.
function isSegmentChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x2d || // -
    code === 0x2e || // .
    code === 0x5f || // _
    code === 0x7e || // ~
    code === 0x25 // % (already-encoded octets stay as the client sent them)
  )
}

/**
 * The prefix that makes a path below the docs mount relative to the page's own URL: `./` when the
 * page was requested as `/docs/`, `./docs/` when as `/docs`. Relative URLs keep the page working
 * under any sub-path mount and behind a proxy that strips a prefix.
 */
export function pagePrefix(req: Request): string {
  const url = req.originalUrl ?? req.url
  const query = url.indexOf('?')
  const path = query === -1 ? url : url.slice(0, query)
  if (path.endsWith('/')) return './'
  const segment = path.slice(path.lastIndexOf('/') + 1)
  let safe = ''
  for (const char of segment) {
    safe += isSegmentChar(char.charCodeAt(0)) ? char : encodeURIComponent(char)
  }
  return `./${safe}/`
}
