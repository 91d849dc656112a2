import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { regexRisk } from '../../../src/engine/regex/regex-risk.js'
import { type Node, parse, RegexSyntaxError } from '../../../src/engine/regex/regex-tree.js'

const chars = (n: Node) => (n.t === 'char' ? n.chars : undefined)
const sampleOf = (source: string, flags = '') => {
  const tree = parse(source, flags)
  const n = tree.t === 'seq' && tree.items.length === 1 ? tree.items[0]! : tree
  return n.t === 'char' && n.sample !== undefined ? String.fromCodePoint(n.sample) : undefined
}

describe('parse (regular expression structure)', () => {
  // Valid patterns without the `u` flag, where an escape is incomplete and stands for its letter.
  // The parser once went back to the pattern's start on them, and so never ended: they are read
  // in a child process, where such a loop ends with its timeout instead of hanging the runner.
  const incomplete = ['\\k<a', 'x\\u{', '\\p{L', '(a+)+\\u{12$']

  it('ends on incomplete legacy escapes and reads each as its letter', () => {
    for (const source of incomplete) expect(() => new RegExp(source)).not.toThrow()
    const dir = join(import.meta.dirname, '../../../src/engine/regex')
    const url = (file: string) => JSON.stringify(pathToFileURL(join(dir, file)).href)
    const script = `import { regexRisk } from ${url('regex-risk.ts')}
import { parse } from ${url('regex-tree.ts')}
const sources = ${JSON.stringify(incomplete)}
console.log(JSON.stringify({
  risks: sources.map((s) => regexRisk(new RegExp(s)) ?? 'none'),
  first: parse(sources[0], '').items.map((n) => n.chars),
}))`
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      { encoding: 'utf8', timeout: 30_000 },
    )
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      risks: ['none', 'none', 'none', 'exponential'],
      first: [[[107, 107]], [[60, 60]], [[97, 97]]],
    })
  }, 60_000)

  it('refuses an incomplete escape with the u flag', () => {
    for (const source of ['\\k', '\\p', '\\x4', '\\u12', '\\u{110000}', '\\c'])
      expect(() => parse(source, 'u'), source).toThrow(RegexSyntaxError)
  })

  it('refuses what no RegExp accepts', () => {
    for (const source of ['(a', 'a)', '[a', '\\', '*a', 'a|+b', 'a**', '[z-a]', '(?<n', '(?x)'])
      expect(() => parse(source, ''), source).toThrow(RegexSyntaxError)
  })

  it('keeps lookarounds and back-references apart from anchors', () => {
    const seq = parse('^(?=a)(b)\\1\\b$', '')
    expect(seq.t === 'seq' && seq.items.map((n) => n.t)).toEqual([
      'empty',
      'look',
      'char',
      'backref',
      'empty',
      'empty',
    ])
  })

  it('gives each position a character it surely reads, the one the pattern names first', () => {
    expect(sampleOf('[x-z]')).toBe('x')
    expect(sampleOf('[\\da]')).toBe('1')
    expect(sampleOf('[^a-z]')).toBe('A')
    expect(sampleOf('\\W')).toBe('-')
    expect(sampleOf('.')).toBe('a')
    expect(sampleOf('\\p{Nd}', 'u')).toBe('1')
    expect(sampleOf('\\P{N}', 'u')).toBe('a')
    expect(sampleOf('\\u{1F600}', 'u')).toBe('😀')
    expect(sampleOf('[^\\p{L}]', 'u')).toBeUndefined()
    expect(sampleOf('[]')).toBeUndefined()
  })

  it('folds case inside a modifier group only', () => {
    const seq = parse('(?i:a)b', '')
    expect(seq.t === 'seq' && seq.items.map(chars)).toEqual([
      [
        [97, 97],
        [65, 65],
      ],
      [[98, 98]],
    ])
  })

  it('lets the regex screen read past back-references and lookarounds', () => {
    expect(regexRisk(/^(a+)+\k<n>(?<n>x)$/)).toBe('exponential')
    expect(regexRisk(/^(?=(a+)+)/)).toBeUndefined()
  })
})
