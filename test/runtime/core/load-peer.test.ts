import { describe, expect, it } from 'vitest'
import { loadPeer, tryLoadPeer } from '../../../src/runtime/core/load-peer.js'

describe('tryLoadPeer', () => {
  it('loads an installed optional peer', () => {
    expect(typeof tryLoadPeer('pino')).toBe('function')
    expect(typeof tryLoadPeer<{ createLogger: unknown }>('winston')?.createLogger).toBe('function')
  })

  it('returns undefined for a package that is not installed', () => {
    expect(tryLoadPeer('shapeguard-no-such-package')).toBeUndefined()
  })
})

describe('loadPeer', () => {
  it('throws a clear error naming the missing package', () => {
    expect(() => loadPeer('shapeguard-no-such-package', 'the test backend')).toThrow(
      'shapeguard: the test backend: needs the optional package "shapeguard-no-such-package", which is not installed, install it with: npm install shapeguard-no-such-package',
    )
  })
})
