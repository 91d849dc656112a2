import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Agent, createServer, get, type IncomingHttpHeaders } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { serverUrl } from '../../examples/demo/server-url.js'

const root = resolve(import.meta.dirname, '../..')

const script: string = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')).scripts.demo

/**
 * Starts the demo as `npm run demo` does, through the same shell command with its build step
 * replaced by `true` (the e2e run does not rebuild the package); by default on a free port of
 * 127.0.0.1. `base` is the address it says it listens on.
 */
async function startDemo(env: { PORT: string; HOST: string } = { PORT: '0', HOST: '127.0.0.1' }) {
  const child = spawn('sh', ['-c', script.replace('npm run build', 'true')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: 'pipe',
    detached: true, // its own process group, so that the test can clean up whatever is left
  })
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  let out = ''
  const base = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (chunk) => {
      out += chunk
      const listening = /listening on (http:\/\/\S+:\d+)\n/.exec(out)
      if (listening?.[1]) done(listening[1])
    })
    child.once('exit', () => fail(new Error(`the demo exited before listening:\n${out}`)))
  })
  return { child, exited, base }
}

/** Stops a demo started by startDemo, its whole process group. */
function stopDemo(child: ChildProcess): void {
  try {
    process.kill(-(child.pid ?? 0), 'SIGKILL')
  } catch {
    // The whole group is gone already.
  }
}

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  await new Promise((done) => server.close(done))
  return port
}

/** GET `url`: the status, the headers and the body as text. */
function fetchText(url: string) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>(
    (done, fail) => {
      get(url, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          text += chunk
        })
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, text }))
      }).on('error', fail)
    },
  )
}

/** Whether anything still answers at `base`. */
function answers(base: string): Promise<boolean> {
  return new Promise((done) => {
    get(`${base}/health`, (res) => {
      res.resume()
      done(true)
    }).on('error', () => done(false))
  })
}

describe('the demo server', () => {
  it('stops on SIGTERM and SIGINT without waiting for idle connections', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const { child, exited, base } = await startDemo()
      const agent = new Agent({ keepAlive: true })
      try {
        // A browser keeps its connection open after a response; the server must not wait for it.
        const status = await new Promise<number | undefined>((done, fail) => {
          get(`${base}/health`, { agent }, (res) => {
            res.resume()
            res.on('end', () => done(res.statusCode))
          }).on('error', fail)
        })
        expect(status).toBe(200)
        // A connection that has sent nothing yet: no server timeout ever ends it, so a server
        // that waited for its idle connections would never exit (and the test would time out).
        const { hostname, port } = new URL(base)
        const silent = connect(Number(port), hostname).on('error', () => {})
        await new Promise((done) => silent.once('connect', done))
        child.kill(signal)
        const code = await exited
        const stillServing = await answers(base)
        expect({ signal, code, stillServing }).toEqual({ signal, code: 0, stillServing: false })
      } finally {
        agent.destroy()
        stopDemo(child)
      }
    }
  }, 60_000)
})

describe('the demo on another port and host', () => {
  // PORT=4101 npm run demo: the document, the docs page's CSP and the three exported collections
  // all named localhost:3000, so try-it-out and every imported request went nowhere.
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['0.0.0.0', 'localhost'],
  ])(
    'names where it listens in its document, CSP and exports: HOST=%s',
    async (host, advertised) => {
      const port = await freePort()
      const { child, base } = await startDemo({ PORT: String(port), HOST: host })
      try {
        expect(base).toBe(`http://${advertised}:${port}`)
        const at = `http://127.0.0.1:${port}`
        const doc = JSON.parse((await fetchText(`${at}/docs/openapi.json`)).text)
        expect(doc.servers).toEqual([{ url: base, description: 'npm run demo' }])
        const page = await fetchText(`${at}/docs`)
        expect(page.status).toBe(200)
        const csp = String(page.headers['content-security-policy']).split(';')
        const connect = csp.map((d) => d.trim()).find((d) => d.startsWith('connect-src '))
        expect(connect?.split(' ')).toContain(base)
        expect(csp.join(';')).not.toContain(':3000')
        for (const tool of ['postman', 'insomnia', 'bruno']) {
          const { status, text } = await fetchText(`${at}/docs/${tool}.json`)
          expect({
            tool,
            status,
            names: text.includes(base),
            stale: text.includes(':3000'),
          }).toEqual({
            tool,
            status: 200,
            names: true,
            stale: false,
          })
        }
      } finally {
        stopDemo(child)
      }
    },
    60_000,
  )

  it('advertises localhost for a wildcard address, and brackets an IPv6 one', () => {
    expect(serverUrl('0.0.0.0', 4101)).toBe('http://localhost:4101')
    expect(serverUrl('::', 4101)).toBe('http://localhost:4101')
    expect(serverUrl('::1', 4101)).toBe('http://[::1]:4101')
    expect(serverUrl('localhost', 3000)).toBe('http://localhost:3000')
    expect(serverUrl('127.0.0.1', 4101)).toBe('http://127.0.0.1:4101')
  })
})
