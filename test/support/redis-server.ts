import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { afterAll, beforeAll } from 'vitest'

/** Whether this machine has redis-server; under SHAPEGUARD_STRICT=1 (CI) its absence is a failure. */
export function redisAvailable(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    if (process.env.SHAPEGUARD_STRICT === '1') {
      throw new Error(
        'SHAPEGUARD_STRICT=1 but redis-server is not installed (apt-get install redis-server)',
      )
    }
    return false
  }
}

/** The reason shown in the name of a suite skipped for want of redis-server. */
export const redisSkipReason =
  'skipped: redis-server is not installed (apt-get install redis-server)'

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** A redis-server of the test's own, on 127.0.0.1, that keeps nothing on disk. */
export interface RedisServer {
  readonly port: number
  stop(): Promise<void>
  /** Stops it and starts a fresh one (empty, no scripts) on the same port. */
  restart(): Promise<void>
}

function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  return new Promise((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`redis-server did not start on port ${port}: ${out.slice(-500)}`))
    }, 10_000)
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer)
        resolve(child)
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`redis-server exited (${code}): ${out.slice(-500)}`))
    })
  })
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort()
  let child = await launch(port)
  return {
    port,
    stop: () => kill(child),
    async restart() {
      await kill(child)
      child = await launch(port)
    },
  }
}

/** A test file's redis-server: started before its tests when the machine has one, stopped after. */
export interface RedisFixture {
  readonly available: boolean
  /** The server, once started (only when `available`). */
  readonly redis: RedisServer
  /** Closed after the file's tests, without waiting on the server: a test may leave it stopped. */
  readonly closers: Array<() => unknown>
}

/** Registers the file's hooks: one redis-server for the file, its clients closed, then it stops. */
export function useRedisServer(): RedisFixture {
  const available = redisAvailable()
  let redis: RedisServer | undefined
  const closers: Array<() => unknown> = []
  beforeAll(async () => {
    if (available) redis = await startRedis()
  }, 20_000)
  afterAll(async () => {
    for (const close of closers) {
      try {
        await close()
      } catch {
        // already closed
      }
    }
    await redis?.stop()
  })
  return {
    available,
    closers,
    get redis() {
      if (redis === undefined) throw new Error('redis-server is not started')
      return redis
    },
  }
}
