import { createRequire } from 'node:module'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { toYaml } from '../../src/cli/yaml.js'

// `--format yaml` writes YAML with a small writer of its own; the YAML parser the OpenAPI
// validator reads documents with (yaml 2, YAML 1.2) must read back exactly the JSON data written.

const requireValidator = createRequire(
  createRequire(import.meta.url).resolve('@seriousme/openapi-schema-validator'),
)
const { parse } = requireValidator('yaml') as { parse: (text: string) => unknown }

const json = (value: unknown) => JSON.parse(JSON.stringify(value))

// Strings YAML gives a meaning to when bare: booleans and nulls of YAML 1.1 and 1.2, numbers,
// indicators at the start, `: ` and ` #` inside, spaces at the ends, line breaks and the
// characters YAML must escape.
const tricky = [
  '',
  ' ',
  'true',
  'False',
  'NULL',
  '~',
  'yes',
  'No',
  'on',
  'OFF',
  'y',
  'n',
  '1',
  '-1',
  '1e5',
  '0x1f',
  '0o17',
  '.5',
  '.inf',
  '.NaN',
  '1_000',
  '2001-12-14',
  '- a',
  '-a',
  '? a',
  ': a',
  'a: b',
  'a:b',
  'a #b',
  'a# b',
  '#a',
  ' a',
  'a ',
  'a  b',
  '@a',
  '`a',
  '!a',
  '&a',
  '*a',
  '|',
  '>',
  '%a',
  '[a]',
  '{a}',
  'a,b',
  '"a"',
  "'a'",
  'a\nb',
  'a\r\nb',
  '\t',
  'a\tb',
  '\u0000',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ufffe',
  '\uffff',
  '\ud800',
  '\udc00',
  '😀',
  '<<',
  '=',
  '/users/{id}',
  '$ref',
  'application/json',
  '#/components/schemas/User',
  'a\\b',
]

describe('toYaml', () => {
  it.each(tricky.map((s) => [JSON.stringify(s), s]))(
    'reads %s back as the same string, as a value and as a key',
    (_, s) => {
      expect(parse(toYaml({ [s]: s, list: [s] }))).toEqual({ [s]: s, list: [s] })
      expect(parse(toYaml(s))).toBe(s)
    },
  )

  test.prop([fc.jsonValue({ stringUnit: 'binary' })], { numRuns: 2000 })(
    'reads any JSON value back unchanged',
    (value) => {
      expect(parse(toYaml(value))).toEqual(json(value))
    },
  )

  // YAML 1.2's c-printable: a parser may refuse any other character unescaped.
  const printable = /^[\t\n\r\u0020-\u007e\u0085\u00a0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u

  test.prop([fc.jsonValue({ stringUnit: 'binary' })], { numRuns: 2000 })(
    'writes only characters YAML allows unescaped',
    (value) => {
      expect(toYaml(value)).toMatch(printable)
    },
  )

  it('quotes the words YAML 1.1 parsers (PyYAML, SnakeYAML) read as booleans', () => {
    for (const word of ['yes', 'No', 'on', 'OFF', 'y', 'n'])
      expect(toYaml({ [word]: word })).toBe(`"${word}": "${word}"\n`)
  })

  it('writes block style, bare words where unambiguous, empty collections in flow style', () => {
    const doc = {
      openapi: '3.1.0',
      paths: {
        '/users/{id}': { get: { tags: ['users'], parameters: [{ name: 'id', required: true }] } },
      },
      responses: { '200': { description: 'OK: the user' } },
      empty: { object: {}, array: [] },
      matrix: [[1, 2], [], [{ a: null }]],
    }
    expect(toYaml(doc)).toBe(
      [
        'openapi: "3.1.0"',
        'paths:',
        '  /users/{id}:',
        '    get:',
        '      tags:',
        '        - users',
        '      parameters:',
        '        - name: id',
        '          required: true',
        'responses:',
        '  "200":',
        '    description: "OK: the user"',
        'empty:',
        '  object: {}',
        '  array: []',
        'matrix:',
        '  - - 1',
        '    - 2',
        '  - []',
        '  - - a: null',
        '',
      ].join('\n'),
    )
    expect(parse(toYaml(doc))).toEqual(doc)
  })
})
