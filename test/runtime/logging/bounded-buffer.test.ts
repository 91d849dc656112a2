import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const CHILD = resolve(import.meta.dirname, 'fixtures/stalled-reader.ts')
const MB = 1024 * 1024

interface Outcome {
  held: number
  grown: number
  stdout: string
  stderr: string
  code: number | null
}

// The child logs into a stdout pipe nobody reads; once it has reported, the pipe is read again.
function stall(backend: string, mode: string): Promise<Outcome> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', CHILD, backend, mode],
      {
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        env: { ...process.env, NODE_ENV: 'development', NO_COLOR: '1' },
      },
    )
    child.stdout?.pause()
    let stdout = ''
    let stderr = ''
    const report = { held: -1, grown: -1 }
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk
    })
    child.on('message', (message: { held: number; grown: number }) => {
      Object.assign(report, message)
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk
      })
      child.stdout?.resume()
      child.send('go')
    })
    child.on('close', (code) => done({ ...report, stdout, stderr, code }))
  })
}

describe('a log reader that stalls', () => {
  it.each([
    ['console', 'json'],
    ['console', 'pretty'],
    ['pino', 'json'],
    ['pino', 'pretty'],
    ['winston', 'json'],
    ['winston', 'pretty'],
  ])(
    'bounds what waits for it and says how many lines were dropped once it reads (%s, %s)',
    async (backend, mode) => {
      const outcome = await stall(backend, mode)
      expect(outcome.stderr).toBe('')
      expect(outcome.code).toBe(0)
      // About 50 MB was logged; 16 MiB may wait (logger.maxBufferBytes by default). pino's JSON
      // goes through its own destination (sonic-boom on fd 1, bounded by its maxLength), not
      // process.stdout: there what waits shows only in the memory kept, checked below.
      if (backend === 'pino' && mode === 'json') expect(outcome.held).toBe(0)
      else {
        expect(outcome.held).toBeGreaterThan(1 * MB)
        expect(outcome.held).toBeLessThanOrEqual(16 * MB)
      }
      // What waits is strings, up to twice their length in memory (pretty lines are built by
      // concatenation); without the bound it is all 50 MB of lines.
      expect(outcome.grown).toBeLessThan(48 * MB)
      const notices = outcome.stdout.split('\n').filter((l) => l.includes('log lines dropped'))
      expect(notices).toHaveLength(1)
      const dropped = Number(/"droppedLines":(\d+)/.exec(notices[0]!)?.[1])
      expect(dropped).toBeGreaterThan(50_000)
      expect(outcome.stdout).toMatch(/last line/)
    },
    60_000,
  )
})
