import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { installSink, logger, resetLogger } from '../../../src/runtime/logging/logger.js'
import { resolveLoggerOptions } from '../../../src/runtime/logging/options.js'
import { resolveBackend } from '../../../src/runtime/logging/resolve-backend.js'
import { throwingLoggers } from '../../support/throwing-loggers.js'

const TIMER = resolve(import.meta.dirname, 'fixtures/throwing-logger-timer.ts')

afterEach(() => {
  vi.restoreAllMocks()
  resetLogger()
})

function stderrLines(write: { mock: { calls: unknown[][] } }): string[] {
  return write.mock.calls.map((c) => String(c[0]))
}

describe('a logger.instance that throws', () => {
  it.each(throwingLoggers().map((l) => [l.kind, l] as const))(
    'loses the line, never throws to the caller, and says so once on stderr (%s)',
    (_, broken) => {
      const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
      const options = resolveLoggerOptions({ instance: broken.instance }, true)
      installSink(resolveBackend(options), options)
      broken.arm()
      expect(() => {
        logger.debug('one')
        logger.info({ orderId: 1 }, 'two')
        logger.warn({ nested: { a: 1 } })
        logger.error(new Error('three') as never)
      }).not.toThrow()
      expect(broken.calls()).toBeGreaterThanOrEqual(4)
      const lines = stderrLines(write)
      expect(lines).toHaveLength(1)
      expect(JSON.parse(lines[0]!)).toEqual({
        level: 'error',
        time: expect.any(String),
        lostLines: 1,
        message: expect.stringMatching(/^shapeguard: the logger threw/),
      })
      // Nothing of the line or of what was thrown.
      expect(lines[0]).not.toMatch(/orderId|secret|down/)
    },
  )

  it('reports again after a minute, with the lines lost in between', () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
      const [broken] = throwingLoggers()
      const options = resolveLoggerOptions({ instance: broken!.instance }, true)
      installSink(resolveBackend(options), options)
      for (let i = 0; i < 10; i++) logger.info('lost')
      vi.advanceTimersByTime(60_000)
      logger.info('lost')
      expect(stderrLines(write).map((l) => JSON.parse(l).lostLines)).toEqual([1, 10])
    } finally {
      vi.useRealTimers()
    }
  })

  it('never kills the process when a timer logs through it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', TIMER], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk
    })
    child.stdout.resume()
    const code = await new Promise((done) => child.on('close', done))
    expect(stderr).not.toMatch(/logger down|Error/)
    expect(code).toBe(0)
    // 52 lines lost, one report.
    expect(
      stderr
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).lostLines),
    ).toEqual([1])
  }, 30_000)
})
