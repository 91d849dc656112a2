import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Agent, get } from 'node:http'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')

const script: string = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')).scripts.demo

/**
 * Starts the demo as `npm run demo` does, through the same shell command with its build step
 * replaced by `true` (the e2e run does not rebuild the package), on a free port of 127.0.0.1.
 */
async function startDemo() {
  const child = spawn('sh', ['-c', script.replace('npm run build', 'true')], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
    stdio: 'pipe',
    detached: true, // its own process group, so that the test can clean up whatever is left
  })
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  let out = ''
  const base = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (chunk) => {
      out += chunk
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (listening?.[1]) done(listening[1])
    })
    child.once('exit', () => fail(new Error(`the demo exited before listening:\n${out}`)))
  })
  return { child, exited, base }
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
  it('stops within a few seconds on SIGTERM and SIGINT, even with a keep-alive connection open', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const { child, exited, base } = await startDemo()
      // A browser keeps its connection open after a response; the server must not wait for it.
      const agent = new Agent({ keepAlive: true })
      const status = await new Promise<number | undefined>((done, fail) => {
        get(`${base}/health`, { agent }, (res) => {
          res.resume()
          res.on('end', () => done(res.statusCode))
        }).on('error', fail)
      })
      expect(status).toBe(200)
      const sent = Date.now()
      child.kill(signal)
      const code = await Promise.race([
        exited,
        new Promise<'still running'>((done) => setTimeout(() => done('still running'), 3000)),
      ])
      const stillServing = await answers(base)
      agent.destroy()
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL')
      } catch {
        // The whole group is gone already: the expected case.
      }
      expect({ signal, code, stillServing }).toEqual({ signal, code: 0, stillServing: false })
      expect(Date.now() - sent).toBeLessThan(3000)
    }
  }, 60_000)
})
