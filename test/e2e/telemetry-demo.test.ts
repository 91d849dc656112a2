import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { resolve } from 'node:path'
import { expect, it } from 'vitest'

// `OTEL=1 npm run demo` runs the demo traced: each span printed to the console as it ends (the
// SDK's console exporter), beside the demo's own pretty log lines, which name the same trace and
// span. Started as npm runs it, its build step replaced by `true` (the e2e run does not rebuild).

const root = resolve(import.meta.dirname, '../..')
const script: string = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')).scripts.demo

function post(base: string, path: string, body: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    })
    req.on('response', (res) => {
      res.resume()
      res.on('end', () => done(res.statusCode ?? 0))
    })
    req.on('error', fail)
    req.end(body)
  })
}

it('prints the spans of a traced request, and its log lines name them', async () => {
  const child = spawn('sh', ['-c', script.replace('npm run build', 'true')], {
    cwd: root,
    env: { ...process.env, OTEL: '1', PORT: '0', HOST: '127.0.0.1' },
    stdio: 'pipe',
    detached: true,
  })
  let out = ''
  child.stdout.on('data', (chunk) => {
    out += chunk
  })
  try {
    const base = await new Promise<string>((done, fail) => {
      child.stdout.on('data', () => {
        const listening = /listening on (http:\/\/\S+:\d+)\n/.exec(out)
        if (listening?.[1]) done(listening[1])
      })
      child.once('exit', () => fail(new Error(`the demo exited before listening:\n${out}`)))
    })
    expect(await post(base, '/users', '{}')).toBe(422)
    const line = /\[WARN\] << 422 POST \/users .* trace_id=(\w{32}) span_id=(\w{16}) trace_flags=01/
    for (let i = 0; i < 100 && !line.test(out); i++) await new Promise((r) => setTimeout(r, 50))
    const [, traceId, spanId] = line.exec(out) ?? []
    expect(traceId, out).toBeDefined()
    // The console exporter's record of the server span (util.inspect of the span's fields).
    const span = out
      .split(/\n(?=\{\n)/)
      .find((block) => block.includes(`id: '${spanId}'`) && block.includes("name: 'POST /users'"))
    expect(span, out).toBeDefined()
    expect(span).toContain(`traceId: '${traceId}'`)
    expect(span).toContain("'http.route': '/users'")
    expect(span).toContain("'shapeguard.error.code': 'VALIDATION_ERROR'")
    expect(span).toContain("name: 'shapeguard.validation.failed'")
  } finally {
    try {
      process.kill(-(child.pid ?? 0), 'SIGKILL')
    } catch {
      // The whole group is gone already.
    }
  }
}, 30_000)
