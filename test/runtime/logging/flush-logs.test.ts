import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { flushLogs, watchForFlush } from '../../../src/runtime/logging/flush-logs.js'
import { safeStream } from '../../../src/runtime/logging/safe-stream.js'
import { turnBuffered } from '../../../src/runtime/logging/turn-buffer.js'
import { capture } from '../../support/log-capture.js'

/** A stream that takes `ms` to write each chunk, or never finishes one (`ms` undefined). */
function slow(ms: number | undefined) {
  const written: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      if (ms === undefined) return
      setTimeout(() => {
        written.push(String(chunk))
        done()
      }, ms)
    },
  })
  return { stream, written }
}

describe('flushLogs', () => {
  it('waits until a stream lines went to has written them', async () => {
    const { stream, written } = slow(30)
    const safe = safeStream(stream)
    safe.write('a\n')
    safe.write('b\n')
    await flushLogs(2000)
    expect(written).toEqual(['a\n', 'b\n'])
  })

  it('hands a turn’s held lines over at once', async () => {
    const out = capture()
    const stream = turnBuffered(out, out)
    stream.write('held\n')
    await flushLogs(100)
    expect(out.chunks).toEqual(['held\n'])
  })

  it('calls a flushable logger’s flush and waits for it', async () => {
    let flushed = false
    watchForFlush({
      flush(done: () => void) {
        setTimeout(() => {
          flushed = true
          done()
        }, 20)
      },
    })
    await flushLogs(2000)
    expect(flushed).toBe(true)
  })

  it('gives up after its timeout on a stream that never finishes', async () => {
    const { stream } = slow(undefined)
    safeStream(stream).write('stuck\n')
    const start = performance.now()
    await flushLogs(150)
    const took = performance.now() - start
    expect(took).toBeGreaterThanOrEqual(140)
    expect(took).toBeLessThan(1000)
    stream.destroy()
  })
})
