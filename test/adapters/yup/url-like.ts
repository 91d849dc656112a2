import fc from 'fast-check'

// Strings shaped like URLs (scheme, `//`, userinfo, host, port, path, query, fragment), each part
// mostly well-formed and sometimes broken by one character from the edges of yup's classes.

const odd = [
  ...'%@:/?#.-_~ \n["\\^{|<',
  '\u009f',
  '\u00a0',
  'ÿ',
  'é',
  'K',
  'ı',
  'ſ',
  'İ',
  'ß',
  'Σ',
  '\ud7ff',
  '\ud800',
  '\udc00',
  '\ue000',
  '\uf8ff',
  '\uf900',
  '\ufdcf',
  '\ufdd0',
  '\ufdef',
  '\ufdf0',
  '\uffef',
  '\ufff0',
]

const some = (set: string, minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...set), minLength, maxLength })

const maybeBroken = (a: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 6, arbitrary: a },
    {
      weight: 1,
      arbitrary: fc
        .tuple(a, fc.constantFrom(...odd), fc.nat(8))
        .map(([s, c, i]) => s.slice(0, i) + c + s.slice(i)),
    },
  )

const optional = (a: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 2, arbitrary: fc.constant('') }, { weight: 1, arbitrary: a })

const label = maybeBroken(
  fc.oneof(
    some('abz019', 1, 1),
    fc.tuple(some('aZ9', 1, 1), some('ab-._~9', 0, 4), some('aZ9', 1, 1)).map((a) => a.join('')),
  ),
)
const top = maybeBroken(
  fc.oneof(
    some('abz', 1, 1),
    fc.tuple(some('aZ', 1, 1), some('ab-._~9', 0, 3), some('aZ', 1, 1)).map((a) => a.join('')),
  ),
)
const octet = fc.constantFrom('0', '1', '9', '10', '99', '199', '249', '250', '255', '256', '01')
const host = fc.oneof(
  fc
    .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), top)
    .map(([a, t]) => [...a, t].join('.')),
  maybeBroken(fc.array(octet, { minLength: 3, maxLength: 5 }).map((a) => a.join('.'))),
)
const pct = fc.constantFrom('%41', '%fF', '%4', '%g0', '%')
const chars = (set: string, max: number) =>
  maybeBroken(
    fc
      .array(fc.oneof({ weight: 5, arbitrary: some(set, 1, 1) }, pct), { maxLength: max })
      .map((a) => a.join('')),
  )

/** A URL-like string of at most about 45 UTF-16 units. */
export const urlLike: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('', '', 'http:', 'https:', 'ftp:', 'HTTPS:', 'file:', 'http', 'http:/'),
    fc.constantFrom('//', '//', '//', '//', '/', '///'),
    optional(chars("ab:!$&'()*+,;=.-~", 5).map((s) => `${s}@`)),
    host,
    fc.constantFrom('', '', '', '.', '..'),
    optional(fc.constantFrom(':', ':80', ':8a', '::1', ':0')),
    optional(chars('ab/.:@!-~z', 6).map((s) => `/${s}`)),
    optional(chars('a=&/?\ue000', 5).map((s) => `?${s}`)),
    optional(chars('a/?@#', 4).map((s) => `#${s}`)),
  )
  .map((a) => a.join(''))
