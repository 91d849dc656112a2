import { type ChildProcess, spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { get, keepAlive, type Outcome } from './shutdown-client.js'

const SCRIPT = resolve(import.meta.dirname, 'fixtures/shutdown-app.ts')

interface Child {
  child: ChildProcess
  port: number
  stdout(): string
  arrived(): number
  exited: Promise<number | null>
}

/** Starts the fixture app with `shutdownMs`; resolves once it listens. Killed after 60 s. */
async function start(shutdownMs: number): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, String(shutdownMs)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  })
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000)
  const exited = new Promise<number | null>((done) =>
    child.once('exit', (code) => {
      clearTimeout(killer)
      done(code)
    }),
  )
  let out = ''
  let err = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk
  })
  const port = await new Promise<number>((done, fail) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk
      const listening = /listening (\d+)\n/.exec(err)
      if (listening?.[1]) done(Number(listening[1]))
    })
    child.once('exit', () => fail(new Error(`the app exited before listening:\n${err}`)))
  })
  return {
    child,
    port,
    exited,
    stdout: () => out,
    arrived: () => err.split('arrived\n').length - 1,
  }
}

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((done) => setTimeout(done, 10))
  }
}

const records = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)

const statusOf = (o: Outcome) => ('status' in o ? o.status : o.error)

describe('serve() on SIGTERM, in a child process', () => {
  it('100 requests of 0–2400 ms (shutdownMs 3000): 100 kept, 0 lost; 5 longer ones cut off with 503; exit 0 with every log line written', async () => {
    const shutdownMs = 3000
    const app = await start(shutdownMs)
    const agent = keepAlive()
    try {
      const asked = Array.from({ length: 100 }, (_, i) => Math.round((i / 99) * shutdownMs * 0.8))
      const within = asked.map((ms) => get(app.port, `/wait?ms=${ms}`, agent))
      const over = [1, 2, 3, 4, 5].map(() => get(app.port, '/wait?ms=60000', agent))
      await until(() => app.arrived() === 105)
      app.child.kill('SIGTERM')
      const kept = (await Promise.all(within)).filter((o) => statusOf(o) === 200).length
      const cut = await Promise.all(over)
      const code = await app.exited
      expect({ kept, lost: 100 - kept }).toEqual({ kept: 100, lost: 0 })
      expect(cut.map(statusOf)).toEqual([503, 503, 503, 503, 503])
      expect(code).toBe(0)
      const lines = records(app.stdout())
      // Every request's line and the shutdown's own, flushed before the exit.
      expect(lines.filter((l) => l.status === 200)).toHaveLength(100)
      expect(lines.filter((l) => l.status === 503)).toHaveLength(5)
      expect(
        lines.find((l) => l.message === 'shapeguard: SIGTERM received, shutting down'),
      ).toBeDefined()
      expect(lines.find((l) => l.cutOff !== undefined)).toMatchObject({
        level: 'warn',
        inFlight: 105,
        cutOff: 5,
      })
    } finally {
      agent.destroy()
      app.child.kill('SIGKILL')
    }
  }, 60_000)

  it('a second SIGTERM during the drain exits at once with 143, saying so in one line', async () => {
    const app = await start(30_000)
    try {
      const pending = get(app.port, '/wait?ms=60000')
      await until(() => app.arrived() === 1)
      app.child.kill('SIGTERM')
      await until(() => app.stdout().includes('SIGTERM received'))
      const second = Date.now()
      app.child.kill('SIGTERM')
      const code = await app.exited
      expect(Date.now() - second).toBeLessThan(5000)
      expect(code).toBe(143)
      const lines = records(app.stdout()).filter((l) =>
        String(l.message).includes('second SIGTERM'),
      )
      expect(lines).toEqual([
        expect.objectContaining({ level: 'warn', signal: 'SIGTERM', exitCode: 143 }),
      ])
      expect(statusOf(await pending)).toMatch(/ECONNRESET|socket hang up/)
    } finally {
      app.child.kill('SIGKILL')
    }
  }, 60_000)
})
