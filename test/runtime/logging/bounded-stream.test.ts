import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { boundedStream, dropNotice } from '../../../src/runtime/logging/bounded-stream.js'
import { resolveLoggerOptions } from '../../../src/runtime/logging/options.js'
import { safeStream } from '../../../src/runtime/logging/safe-stream.js'

/** A stream whose writes wait until `release()`, as a pipe nobody reads does. */
function stalled(): Writable & { written: string[]; release(): void } {
  const waiting: (() => void)[] = []
  const stream = new Writable({
    highWaterMark: 64,
    write(chunk, _encoding, callback) {
      stream.written.push(String(chunk))
      waiting.push(callback)
    },
  }) as Writable & { written: string[]; release(): void }
  stream.written = []
  stream.release = () => {
    while (waiting.length > 0) waiting.shift()!()
  }
  return stream
}

describe('boundedStream', () => {
  it('drops the lines that would pass the cap and says how many once the stream drains', async () => {
    const target = stalled()
    const out = boundedStream(safeStream(target), target, 100, dropNotice(false, false))
    for (let i = 0; i < 20; i++) out.write(`line ${String(i).padStart(3, '0')} ${'x'.repeat(20)}\n`)
    // 30 characters a line: three fit under 100.
    expect(target.writableLength).toBe(90)
    target.release()
    await new Promise((resolve) => setImmediate(resolve))
    target.release()
    const notices = target.written.filter((l) => l.includes('dropped'))
    expect(notices).toHaveLength(1)
    expect(JSON.parse(notices[0]!)).toEqual({
      level: 'warn',
      time: expect.any(String),
      droppedLines: 17,
      message:
        "shapeguard: 17 log lines dropped: the log stream's reader fell behind (logger.maxBufferBytes)",
    })
    // Writing goes on after the notice.
    out.write('after\n')
    expect(target.written.at(-1)).toBe('after\n')
  })

  it('counts the notice of dropped lines against the cap when it goes out before a line', () => {
    // A stream that takes part of what waits (the reader read a little), never draining fully.
    let held = 0
    const written: string[] = []
    const target = {
      get writableLength() {
        return held
      },
      write(text: string) {
        written.push(text)
        held += text.length
        return true
      },
    }
    const out = boundedStream(safeStream(target), target, 200, dropNotice(false, false))
    out.write(`${'a'.repeat(150)}\n`)
    out.write(`${'b'.repeat(80)}\n`)
    expect(written).toHaveLength(1)
    held = 60
    // 60 + this line (51) fits, but not with the notice (about 150): both wait.
    out.write(`${'c'.repeat(50)}\n`)
    expect(written).toHaveLength(1)
    held = 0
    out.write(`${'d'.repeat(10)}\n`)
    expect(written).toHaveLength(3)
    expect(written[1]).toContain('"droppedLines":2')
    expect(written[2]).toBe('dddddddddd\n')
    expect(held).toBeLessThanOrEqual(200)
  })

  it('leaves a stream that does not say what it holds, and an Infinity cap, alone', () => {
    const plain = { write: () => true }
    const safe = safeStream(plain)
    expect(boundedStream(safe, plain, 1, dropNotice(false, false))).toBe(safe)
    const target = stalled()
    const unbounded = safeStream(target)
    expect(
      boundedStream(unbounded, target, Number.POSITIVE_INFINITY, dropNotice(false, false)),
    ).toBe(unbounded)
  })
})

describe('logger.maxBufferBytes', () => {
  it('is 16 MiB by default, and takes a whole number of bytes or Infinity', () => {
    expect(resolveLoggerOptions({}, false).maxBufferBytes).toBe(16 * 1024 * 1024)
    expect(resolveLoggerOptions({ maxBufferBytes: 1 }, false).maxBufferBytes).toBe(1)
    expect(
      resolveLoggerOptions({ maxBufferBytes: Number.POSITIVE_INFINITY }, false).maxBufferBytes,
    ).toBe(Number.POSITIVE_INFINITY)
    for (const bad of [0, -1, 1.5, Number.NaN, '1mb']) {
      expect(() => resolveLoggerOptions({ maxBufferBytes: bad as number }, false)).toThrow(
        /logger\.maxBufferBytes: must be a whole number of bytes >= 1, or Infinity/,
      )
    }
  })
})
