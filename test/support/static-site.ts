import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, relative, resolve, sep } from 'node:path'

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
}

/** A built static site served over HTTP. */
export interface StaticSite {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string
  close(): Promise<void>
}

function fileFor(dir: string, pathname: string): string | null {
  const path = normalize(decodeURIComponent(pathname))
  const candidates = path.endsWith('/')
    ? [join(dir, path, 'index.html')]
    : [join(dir, path), join(dir, `${path}.html`)]
  for (const file of candidates) {
    const inside = relative(dir, file)
    if (inside.startsWith('..') || inside.startsWith(sep)) return null
    try {
      if (statSync(file).isFile()) return file
    } catch {}
  }
  return null
}

/**
 * Serves a folder as a static host with clean URLs does (`/guide` → guide.html, 404.html for
 * anything else), on 127.0.0.1 and a free port, every response with the given headers.
 */
export async function serveStatic(
  dir: string,
  headers: Record<string, string> = {},
): Promise<StaticSite> {
  const root = resolve(dir)
  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://127.0.0.1')
    const file = fileFor(root, pathname)
    const status = file === null ? 404 : 200
    const served = file ?? join(root, '404.html')
    res.writeHead(status, {
      ...headers,
      'content-type': types[extname(served)] ?? 'application/octet-stream',
    })
    res.end(readFileSync(served))
  })
  server.listen(0, '127.0.0.1')
  await new Promise((done) => server.once('listening', done))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections()
      await new Promise((done) => server.close(done))
    },
  }
}

/** Every file of a folder, recursively, as paths relative to it. */
export function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) =>
    statSync(join(dir, name)).isFile(),
  )
}

/** CSP's `'sha256-…'` source for a text. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`
}

/** The inline `<script>` bodies and `style="…"` attribute values of the site's HTML pages. */
export function inlineCode(dir: string): { scripts: Set<string>; styleAttributes: Set<string> } {
  const scripts = new Set<string>()
  const styleAttributes = new Set<string>()
  for (const name of filesOf(dir).filter((f) => f.endsWith('.html'))) {
    const html = readFileSync(join(dir, name), 'utf8')
    for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
      scripts.add(m[1] ?? '')
    }
    for (const m of html.matchAll(/\sstyle="([^"]*)"/g)) styleAttributes.add(m[1] ?? '')
  }
  return { scripts, styleAttributes }
}
