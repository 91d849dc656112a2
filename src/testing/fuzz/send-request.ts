import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readBounded, type StreamBounds, type StreamRead } from './read-stream.js'

/** An answer as the fuzzer reads it. */
export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  readonly text: string
  /** What was read of a stream (an SSE or NDJSON answer read within bounds). */
  readonly stream?: StreamRead
  /** Milliseconds from sending the request to its answer's end (a stream's: its head). */
  readonly ms?: number
}

/** An app listening on 127.0.0.1 on a free port, reached over kept-alive connections. */
export interface Listener {
  send(
    method: string,
    url: string,
    headers: Readonly<Record<string, string>>,
    body?: string | Buffer,
    stream?: StreamBounds,
  ): Promise<Answer>
  close(): Promise<void>
}

// A request the app never answers fails the run instead of hanging it.
const TIMEOUT_MS = 10_000

/**
 * Serves a request handler (an Express app) on 127.0.0.1, port 0, for the length of a run: in
 * process, no network beyond loopback.
 */
export async function listen(app: (req: never, res: never) => void): Promise<Listener> {
  const server = createServer(app as never)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  return {
    send(method, url, headers, body, stream) {
      return new Promise((resolve, reject) => {
        // A server that refuses an upload may close the connection once it has answered: the
        // client's write then fails after the answer, which stands.
        let answered = false
        const start = performance.now()
        const ms = () => Math.round((performance.now() - start) * 10) / 10
        const req = request(
          { host: '127.0.0.1', port, method, path: url, headers, agent, timeout: TIMEOUT_MS },
          (res) => {
            // A streaming route's answer may never end: read within bounds, whatever its type.
            // Its reader hangs up when it stops: the head is the answer, its bounds its timeout.
            if (stream !== undefined) {
              answered = true
              const head = ms()
              readBounded(res, stream).then((read) =>
                resolve({ status: res.statusCode ?? 0, headers: res.headers, ...read, ms: head }),
              )
              return
            }
            let text = ''
            res.setEncoding('utf8')
            res.on('data', (chunk: string) => {
              text += chunk
            })
            res.on('end', () => {
              answered = true
              resolve({ status: res.statusCode ?? 0, headers: res.headers, text, ms: ms() })
            })
            res.on('error', reject)
          },
        )
        req.on('timeout', () => {
          if (!answered || stream === undefined)
            req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`))
        })
        req.on('error', (error) => {
          if (!answered) reject(error)
        })
        req.end(body)
      })
    },
    close() {
      agent.destroy()
      return new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections?.()
      })
    },
  }
}
