import { Writable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { installSink, logger, resetLogger } from '../../../src/runtime/logging/logger.js'
import { resolveLoggerOptions } from '../../../src/runtime/logging/options.js'
import { resolveBackend } from '../../../src/runtime/logging/resolve-backend.js'
import { safeStream } from '../../../src/runtime/logging/safe-stream.js'
import { BACKENDS, settle } from '../../support/log-capture.js'

afterEach(() => resetLogger())

/** A real stream whose every write fails, as a full disk or a dead destination does. */
function failing(): Writable & { attempts: number } {
  const stream = new Writable({
    write(_chunk, _encoding, callback) {
      stream.attempts++
      callback(new Error('ENOSPC: no space left on device'))
    },
  }) as Writable & { attempts: number }
  stream.attempts = 0
  return stream
}

describe('safeStream', () => {
  it('swallows a throwing write and writes nothing more afterwards', () => {
    let calls = 0
    const safe = safeStream({
      write() {
        calls++
        throw new Error('EBADF')
      },
    })
    expect(safe.write('a\n')).toBe(false)
    expect(safe.write('b\n')).toBe(false)
    expect(calls).toBe(1)
  })

  it('adds one error listener per stream, however many sinks use it', () => {
    const stream = failing()
    for (let i = 0; i < 20; i++) safeStream(stream)
    expect(stream.listenerCount('error')).toBe(1)
  })

  describe.each(BACKENDS)('through %s', (backend) => {
    it.each([false, true])(
      'a destination error never throws and stops the writes (pretty %s)',
      async (pretty) => {
        const stream = failing()
        const options = resolveLoggerOptions({ pretty }, true)
        installSink(resolveBackend(options, { stream, backend }), options)
        logger.info('first')
        await settle()
        expect(() => {
          for (let i = 0; i < 5; i++) logger.error({ i }, 'after the failure')
        }).not.toThrow()
        await settle()
        expect(stream.attempts).toBe(1)
      },
    )
  })
})
