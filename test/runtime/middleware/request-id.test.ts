import { describe, expect, it, vi } from 'vitest'
import {
  generateRequestId,
  isSafeRequestId,
  requestIdStep,
} from '../../../src/runtime/middleware/request-id.js'
import { resolveConfig } from '../../../src/runtime/middleware/resolve-config.js'

describe('generateRequestId', () => {
  it('is req_ + 12 hex digits of the time + 12 random hex digits', () => {
    vi.useFakeTimers({ now: 0x0193a4f1c2d8 })
    try {
      const id = generateRequestId()
      expect(id).toMatch(/^req_0193a4f1c2d8[0-9a-f]{12}$/)
      expect(id).toHaveLength(28)
    } finally {
      vi.useRealTimers()
    }
  })

  it('does not repeat across many IDs (the random pool refills)', () => {
    const ids = new Set(Array.from({ length: 5000 }, generateRequestId))
    expect(ids.size).toBe(5000)
  })
})

describe('isSafeRequestId', () => {
  it('accepts 1–128 of [A-Za-z0-9._:-] only', () => {
    expect(isSafeRequestId('a')).toBe(true)
    expect(isSafeRequestId('A-z_0.9:x')).toBe(true)
    expect(isSafeRequestId('x'.repeat(128))).toBe(true)
    for (const bad of ['', 'x'.repeat(129), 'a b', 'a/b', 'é', 'a\nb', '😀', undefined, ['a']]) {
      expect(isSafeRequestId(bad)).toBe(false)
    }
  })

  it('reads at most 128 characters of a header, however long', () => {
    const reads = vi.spyOn(String.prototype, 'charCodeAt')
    const charactersRead = (header: string) => {
      reads.mockClear()
      const safe = isSafeRequestId(header)
      const count = reads.mock.calls.length
      expect(safe).toBe(false)
      return count
    }
    try {
      expect(charactersRead(`${'a'.repeat(100_000)}!`)).toBeLessThanOrEqual(128)
      // The count sees the reads: a header of 128 characters is read to its last one.
      expect(charactersRead(`${'a'.repeat(127)}!`)).toBe(128)
    } finally {
      reads.mockRestore()
    }
  })
})

describe('requestIdStep', () => {
  const req = (headers: Record<string, string> = {}) => ({ headers }) as never as { id: string }
  const res = () => {
    const headers: Record<string, string> = {}
    return { headers, setHeader: (k: string, v: string) => (headers[k] = v) }
  }

  it('is a no-op writing the empty string when disabled', () => {
    const step = requestIdStep(resolveConfig({ requestId: { enabled: false } }))
    const r = req({ 'x-request-id': 'up' })
    step(r as never, res() as never)
    expect(r.id).toBe('')
  })

  it('prefers a safe upstream header over the generator, which it then never calls', () => {
    const generator = vi.fn(() => 'gen')
    const step = requestIdStep(resolveConfig({ requestId: { generator } }))
    const r = req({ 'x-request-id': 'upstream-1' })
    step(r as never, res() as never)
    expect(r.id).toBe('upstream-1')
    expect(generator).not.toHaveBeenCalled()
  })

  it('throws naming the option when the generator returns nothing usable', () => {
    const step = requestIdStep(resolveConfig({ requestId: { generator: () => 42 as never } }))
    expect(() => step(req() as never, res() as never)).toThrow(/returned number/)
  })

  it('writes X-Request-Id only with response.includeRequestId', () => {
    const on = res()
    requestIdStep(resolveConfig({ response: { includeRequestId: true } }))(
      req() as never,
      on as never,
    )
    expect(on.headers['X-Request-Id']).toMatch(/^req_/)
    const off = res()
    requestIdStep(resolveConfig())(req() as never, off as never)
    expect(off.headers).toEqual({})
  })
})
