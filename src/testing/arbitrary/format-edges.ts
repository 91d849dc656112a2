import type { IRString } from '../../engine/ir/types.js'

/**
 * Valid values on the edges of the common string formats (a leap day, the last instant of a day,
 * the nil and max UUIDs, the shortest email, the ends of the address space), each with a value one
 * step past it that the format refuses. A node gets the ones its own checks accept: the library's
 * format decides, not a name.
 */
export const FORMAT_EDGES: readonly (readonly [valid: string, oneStepOff: string])[] = [
  ['2024-02-29T23:59:59.999Z', '2023-02-29T23:59:59.999Z'],
  ['1970-01-01T00:00:00Z', '1970-01-01T24:00:00Z'],
  ['2024-02-29', '2023-02-29'],
  ['9999-12-31', '9999-12-32'],
  ['23:59:59', '23:60:59'],
  ['00000000-0000-0000-0000-000000000000', '00000000-0000-0000-0000-00000000000g'],
  ['ffffffff-ffff-ffff-ffff-ffffffffffff', 'ffffffff-ffff-ffff-ffff-fffffffffffff'],
  ['a@b.co', 'a@b.c'],
  ['255.255.255.255', '256.255.255.255'],
  ['0.0.0.0', '0.0.0'],
  ['::', ':::'],
  ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffg'],
  ['https://example.com:65535/', 'https://example.com:65536/'],
]

// Pattern checks that are the user's own rule (a regex, an affix, a case), not a named format.
const notFormats = new Set([
  'regex',
  'matches',
  'starts_with',
  'ends_with',
  'includes',
  'lowercase',
  'uppercase',
  'template_literal',
])

/** Whether a string node has a named format (email, uuid, a date, …) among its checks. */
export function hasFormat(node: IRString): boolean {
  return node.checks.some(
    (c) => (c.kind === 'pattern' || c.kind === 'format') && !notFormats.has(c.format),
  )
}
