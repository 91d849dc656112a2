import { describe, expect, it } from 'vitest'
import { backoff, minDelay } from '../../src/client/backoff.js'

describe('backoff', () => {
  it('never spins on a server that sends retry: 0', () => {
    for (let i = 0; i < 200; i++) expect(backoff(0, 1, 30_000)).toBeGreaterThanOrEqual(minDelay / 2)
  })

  it('doubles per failure in a row up to the cap, jittered between half and all of it', () => {
    for (let i = 0; i < 200; i++) {
      const wait = backoff(1000, 3, 30_000)
      expect(wait).toBeGreaterThanOrEqual(2000)
      expect(wait).toBeLessThanOrEqual(4000)
      expect(backoff(1000, 20, 30_000)).toBeLessThanOrEqual(30_000)
    }
  })
})
