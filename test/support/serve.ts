import { Agent, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Express } from './e2e.js'

export interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

export interface Served {
  /** Sends one request exactly as given (path not re-encoded) over a kept-alive connection. */
  send(
    method: string,
    path: string,
    options?: { headers?: Record<string, string>; body?: string },
  ): Promise<Answer>
  close(): Promise<void>
}

/**
 * Listens on 127.0.0.1 once and reuses connections, so that property tests can send thousands
 * of requests without a server per request (supertest's way).
 */
export async function serve(app: ReturnType<Express>): Promise<Served> {
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  const agent = new Agent({ keepAlive: true, maxSockets: 8 })
  return {
    send(method, path, { headers = {}, body } = {}) {
      return new Promise((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path, method, headers, agent },
          (res) => {
            let text = ''
            res.setEncoding('utf8')
            res.on('data', (chunk) => {
              text += chunk
            })
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, text }),
            )
            res.on('error', reject)
          },
        )
        req.on('error', reject)
        req.end(body)
      })
    },
    async close() {
      agent.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
