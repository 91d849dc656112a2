import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import fc from 'fast-check'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import type { LogLevel } from '../../../src/runtime/logging/levels.js'
import { createPinoSink, type PinoModule } from '../../../src/runtime/logging/pino-sink.js'
import { capture } from '../../support/log-capture.js'

const LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error']
const KEYS = ['requestId', 'method', 'endpoint', 'status', 'duration_ms', 'slow', 'code', 'ip']
const value = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u0001', 'a', '/', ':', 'é') }),
  fc.string({ unit: 'binary', minLength: 101, maxLength: 140 }),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(undefined),
)
const record = fc.dictionary(fc.constantFrom(...KEYS), value)
const message = fc.option(fc.string({ unit: 'binary' }), { nil: undefined })

// The time differs from one call to the next; everything else must be the same bytes.
const untimed = (line: string | undefined) => line?.replace(/"time":"[^"]*"/, '"time":"T"')

function sinkOn(module: PinoModule = pino as unknown as PinoModule) {
  const out = capture()
  return { out, sink: createPinoSink(module, { pretty: false, stream: out }) }
}

const A_RECORD = {
  requestId: 'req_0190a1b2c3d4e5f6a7b8c9d0',
  method: 'POST',
  endpoint: '/users',
  status: 201,
  duration_ms: 0.45,
}

describe('createPinoSink', () => {
  it('writes a flat record in JSON mode with the bytes pino writes for it', () => {
    const { out, sink } = sinkOn()
    expect(sink.flat).toBeTypeOf('function')
    fc.assert(
      fc.property(fc.constantFrom(...LEVELS), record, message, (level, r, m) => {
        out.chunks.length = 0
        const flat = sink.flat!(level, r, m)
        expect(out.chunks).toHaveLength(flat ? 1 : 0)
        if (m === undefined) sink.logger[level](r)
        else sink.logger[level](r, m)
        if (flat) expect(untimed(out.chunks[0])).toBe(untimed(out.chunks[1]))
      }),
      { numRuns: 1000 },
    )
  })

  it('writes the request record the request logger sends', () => {
    const { out, sink } = sinkOn()
    expect(sink.flat!('info', A_RECORD)).toBe(true)
    sink.logger.info(A_RECORD)
    expect(out.chunks[0]).toMatch(
      /^\{"level":"info","time":"[^"]{24}","requestId":"req_0190a1b2c3d4e5f6a7b8c9d0","method":"POST","endpoint":"\/users","status":201,"duration_ms":0\.45\}\n$/,
    )
    expect(untimed(out.chunks[0])).toBe(untimed(out.chunks[1]))
  })

  it('leaves every record to pino when pino, as loaded, writes them differently', () => {
    // What an instrumentation wrapping pino's factory does: a mixin adds fields to every record.
    const wrapped = Object.assign(
      (options: Record<string, unknown>, stream: never) =>
        pino({ ...options, mixin: () => ({ trace_id: 'abc' }) }, stream),
      { destination: pino.destination, symbols: pino.symbols },
    ) as unknown as PinoModule
    const { out, sink } = sinkOn(wrapped)
    expect(sink.flat).toBeUndefined()
    sink.logger.info(A_RECORD)
    expect(JSON.parse(out.chunks[0]!)).toMatchObject({ trace_id: 'abc', status: 201 })
  })

  it('leaves every record to pino, and probes nothing, when pino writes to other streams too', () => {
    const other = capture()
    const wrapped = Object.assign(
      (options: Record<string, unknown>, stream: never) =>
        pino(options, pino.multistream([{ stream }, { stream: other as never }])),
      { destination: pino.destination, symbols: pino.symbols },
    ) as unknown as PinoModule
    const { out, sink } = sinkOn(wrapped)
    expect(sink.flat).toBeUndefined()
    expect(other.chunks).toEqual([])
    sink.logger.info(A_RECORD)
    expect(untimed(out.chunks[0])).toBe(untimed(other.chunks[0]))
  })

  it('leaves records to pino while its serialisation is traced', () => {
    const { out, sink } = sinkOn()
    const seen: unknown[] = []
    const onStart = (message: unknown) => seen.push(message)
    subscribe('tracing:pino_asJson:start', onStart)
    try {
      expect(sink.flat!('info', A_RECORD)).toBe(false)
      expect(out.chunks).toHaveLength(0)
    } finally {
      unsubscribe('tracing:pino_asJson:start', onStart)
    }
    expect(sink.flat!('info', A_RECORD)).toBe(true)
  })

  it('probes nothing, and leaves every record to pino, when mounted while traced', () => {
    const seen: unknown[] = []
    const onStart = (message: unknown) => seen.push(message)
    subscribe('tracing:pino_asJson:start', onStart)
    try {
      expect(sinkOn().sink.flat).toBeUndefined()
      expect(seen).toEqual([])
    } finally {
      unsubscribe('tracing:pino_asJson:start', onStart)
    }
  })

  it('has no flat path in pretty mode', () => {
    expect(
      createPinoSink(pino as unknown as PinoModule, { pretty: true, stream: capture() }).flat,
    ).toBeUndefined()
  })
})
