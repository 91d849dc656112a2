import { isIPv4 } from 'node:net'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clientAddress } from '../../../src/runtime/rate-limit/client-address.js'

const port = fc.integer({ min: 0, max: 65535 })
const groups = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 })

const hex = (groups: readonly number[]) => groups.map((g) => g.toString(16))

/** The groups with the longest run of zero groups (two or more) written `::`. */
function compressed(groups: readonly number[]): string {
  let best = [-1, 0]
  for (let i = 0; i < 8; i++) {
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > best[1]! && j - i > 1) best = [i, j - i]
  }
  const text = hex(groups)
  if (best[0]! < 0) return text.join(':')
  return `${text.slice(0, best[0]).join(':')}::${text.slice(best[0]! + best[1]!).join(':')}`
}

/** Every way a proxy or a client may write the IPv6 address of these groups. */
function ipv6Spellings(groups: readonly number[], p: number): string[] {
  const full = hex(groups).join(':')
  const short = compressed(groups)
  const padded = groups.map((g) => g.toString(16).padStart(4, '0')).join(':')
  return [
    full,
    short,
    padded,
    full.toUpperCase(),
    short.toUpperCase(),
    `[${short}]`,
    `[${short}]:${p}`,
    `[${padded.toUpperCase()}]:${p}`,
    `${short}%eth0`,
  ]
}

/** Every way one IPv4 address may arrive in req.ip. */
function ipv4Spellings(ip: string, p: number): string[] {
  const [a, b, c, d] = ip.split('.').map(Number) as [number, number, number, number]
  const high = ((a << 8) | b).toString(16)
  const low = ((c << 8) | d).toString(16)
  return [
    ip,
    `${ip}:${p}`,
    `::ffff:${ip}`,
    `::FFFF:${ip}`,
    `0:0:0:0:0:ffff:${ip}`,
    `::ffff:${high}:${low}`,
    `[::ffff:${ip}]:${p}`,
    `[::ffff:${high}:${low}]`,
  ]
}

// The top 56 bits of an address: its first three groups and the high byte of the fourth.
const prefix56 = (g: readonly number[]) => `${g.slice(0, 3).join(':')}:${g[3]! >> 8}`
// Addresses that embed an IPv4 address (::/96 and ::ffff:0:0/96) count as that IPv4 address.
const embedsIPv4 = (g: readonly number[]) =>
  g.slice(0, 5).every((x) => x === 0) && (g[5] === 0 || g[5] === 0xffff)

describe('clientAddress: one key per client', () => {
  it('maps every spelling of an IPv4 address to the address', () => {
    fc.assert(
      fc.property(fc.ipV4(), port, (ip, p) => {
        for (const spelling of ipv4Spellings(ip, p))
          expect(clientAddress(spelling), spelling).toBe(ip)
      }),
    )
  })

  it('gives two distinct IPv4 addresses two keys, neither of them an IPv6 prefix', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.ipV4(), (a, b) => {
        fc.pre(a !== b)
        expect(clientAddress(a)).not.toBe(clientAddress(b))
        expect(isIPv4(clientAddress(a) ?? '')).toBe(true)
      }),
    )
  })

  it('maps every spelling of an IPv6 address to one /56 key', () => {
    fc.assert(
      fc.property(groups, port, (g, p) => {
        fc.pre(!embedsIPv4(g))
        const keys = new Set(ipv6Spellings(g, p).map(clientAddress))
        expect([...keys]).toHaveLength(1)
        expect([...keys][0]).toMatch(/^[0-9a-f:]+\/56$/)
      }),
    )
  })

  it('gives two IPv6 addresses the same key exactly when they share a /56', () => {
    fc.assert(
      fc.property(groups, groups, (a, b) => {
        fc.pre(!embedsIPv4(a) && !embedsIPv4(b))
        const same = clientAddress(compressed(a)) === clientAddress(compressed(b))
        expect(same).toBe(prefix56(a) === prefix56(b))
      }),
    )
  })

  it('keys an address of one /56 by its prefix in canonical form', () => {
    expect(clientAddress('2001:DB8:1:1FF:FFFF::9')).toBe('2001:db8:1:100::/56')
    expect(clientAddress('[2001:0db8:0001:0100:0000:0000:0000:0001]:443')).toBe(
      '2001:db8:1:100::/56',
    )
    expect(clientAddress('::1')).toBe('::/56')
  })

  it('refuses what is no IP address, and never throws', () => {
    const refused = [
      '',
      'unknown',
      'garbage',
      '01.2.3.4',
      '1.2.3.04',
      '1.2.3',
      '1.2.3.4.5',
      '256.1.1.1',
      ' 1.2.3.4',
      '1.2.3.4 ',
      '1.2.3.4:',
      '1.2.3.4:65536',
      '1.2.3.4:+80',
      '1.2.3.4:80:80',
      '1.2.3.4:123456',
      '[1.2.3.4]:80',
      '[2001:db8::1',
      '[2001:db8::1]:',
      '[2001:db8::1]x',
      '[2001:db8::1]]:80',
      '[]:80',
      'host.example:80',
      `1.2.3.4${'0'.repeat(200)}`,
      `${'a:'.repeat(60)}1`,
    ]
    for (const text of refused) expect(clientAddress(text), text).toBeUndefined()
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        const key = clientAddress(text)
        if (key !== undefined) expect(isIPv4(key) || key.endsWith('/56'), key).toBe(true)
      }),
    )
  })
})
