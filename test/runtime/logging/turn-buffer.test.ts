import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { turnBuffered } from '../../../src/runtime/logging/turn-buffer.js'
import { capture } from '../../support/log-capture.js'

const nextTurn = () => new Promise((done) => setImmediate(done))

describe('turnBuffered', () => {
  it('hands a turn’s lines over together, in order, once the turn ends', async () => {
    const out = capture()
    const stream = turnBuffered(out, out)
    stream.write('a\n')
    stream.write('b\n')
    expect(out.chunks).toEqual([])
    await nextTurn()
    stream.write('c\n')
    await nextTurn()
    expect(out.chunks).toEqual(['a\nb\n', 'c\n'])
  })

  it('hands lines over at once past 16 KiB', () => {
    const out = capture()
    const stream = turnBuffered(out, out)
    const line = `${'x'.repeat(1023)}\n`
    for (let i = 0; i < 20; i++) stream.write(line)
    expect(out.chunks).toEqual([line.repeat(16)])
  })

  it('keeps its isTTY', () => {
    expect(turnBuffered(capture(true), capture(true)).isTTY).toBe(true)
  })
})

const SCRIPT = resolve(import.meta.dirname, 'fixtures/exit-flush.ts')

function run(how: string, count: number): Promise<{ stdout: string; code: number | null }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, how, String(count)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk
    })
    child.stderr.resume()
    child.on('close', (code) => done({ stdout, code }))
  })
}

describe('lines held when the process leaves', () => {
  it.each([
    ['exit', 0],
    ['throw', 1],
    ['drain', 0],
  ])(
    'are all written, those of one turn in order (%s)',
    async (how, code) => {
      const outcome = await run(how, 200)
      expect(outcome.code).toBe(code)
      const order = outcome.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => (JSON.parse(l) as { i: number }).i)
      // An earlier turn's write may still be under way in libuv's thread pool at the exit and
      // land after the lines written synchronously then, as with pino's own exit flush.
      expect(order.filter((i) => i >= 3)).toEqual(Array.from({ length: 197 }, (_, i) => i + 3))
      expect(order.filter((i) => i < 3)).toEqual([0, 1, 2])
    },
    30_000,
  )
})
