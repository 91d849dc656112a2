import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createConsoleSink } from '../../../src/runtime/logging/console-sink.js'
import type { LogLevel } from '../../../src/runtime/logging/levels.js'
import { capture } from '../../support/log-capture.js'

const LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error']
const record = fc.dictionary(
  fc.constantFrom('requestId', 'method', 'endpoint', 'status', 'duration_ms', 'slow', 'ip'),
  fc.oneof(fc.string({ unit: 'binary' }), fc.double(), fc.boolean(), fc.constant(undefined)),
)
const untimed = (line: string | undefined) => line?.replace(/"time":"[^"]*"/, '"time":"T"')

describe('createConsoleSink', () => {
  it('writes a flat record in JSON mode with the bytes of its general path', () => {
    const out = capture()
    const sink = createConsoleSink({ pretty: false, stream: out })
    fc.assert(
      fc.property(
        fc.constantFrom(...LEVELS),
        record,
        fc.option(fc.string({ unit: 'binary' }), { nil: undefined }),
        (level, r, m) => {
          out.chunks.length = 0
          const flat = sink.flat!(level, r, m)
          expect(out.chunks).toHaveLength(flat ? 1 : 0)
          if (m === undefined) sink.logger[level](r)
          else sink.logger[level](r, m)
          if (flat) expect(untimed(out.chunks[0])).toBe(untimed(out.chunks[1]))
        },
      ),
      { numRuns: 1000 },
    )
  })

  it('has no flat path in pretty mode', () => {
    expect(createConsoleSink({ pretty: true, stream: capture() }).flat).toBeUndefined()
  })
})
