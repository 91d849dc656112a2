import * as y from 'yup'
import { z } from 'zod'
import { linearUrl } from '../src/adapters/yup/linear-patterns.js'
import { linearSchema } from '../src/adapters/yup/linear-schema.js'
import { zodAdapter } from '../src/adapters/zod/zod-adapter.js'
import { compile } from '../src/engine/index.js'
import { growth, printGrowth, writeResults } from './lib.js'

// Question: does validation stay linear on recheck's attack strings, the strings that make the
// libraries' own patterns backtrack? Each check runs on the attack at n characters (the baseline)
// and at 10n, and on an ordinary string of 10n: linear work takes about 10 times as long at 10n,
// quadratic about 100 times. zod's own endsWith pattern, which the compiled path replaces, is
// measured the same way to show what a quadratic figure looks like.
// The tests prove the same by counting (test/adapters/zod/checks.test.ts,
// test/adapters/yup/linear-*.test.ts, test/engine/regex/redos-audit.test.ts, test/e2e/redos.test.ts).

const prose = (n: number) => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n)
const endsWith = compile(zodAdapter(z.string().endsWith('abc')))
const slugify = compile(zodAdapter(z.string().slugify()))
const zodEndsWithPattern = /.*abc$/
const yupPage = linearSchema(y.object({ site: y.string().url(), links: y.array(y.string().url()) }))
const yupAttack = (n: number) => `//T.${'0.'.repeat(n / 2)}\x00`

const results = []
for (const [question, n, hostile, ordinary, run] of [
  [
    'zod endsWith("abc"), compiled: c…c\\n',
    10_000,
    (n: number) => `${'c'.repeat(n)}\n`,
    (n: number) => `${prose(n)}\n`,
    (s: unknown) => endsWith.validate(s, false),
  ],
  [
    'zod slugify(), compiled: \\0-…--\\0',
    10_000,
    (n: number) => `\x00${'-'.repeat(n)}-\x00`,
    prose,
    (s: unknown) => slugify.validate(s, false),
  ],
  [
    'yup url(): linearUrl on //T.0.0.…\\0',
    5_000,
    yupAttack,
    (n: number) => `https://example.com/${'a'.repeat(n - 20)}`,
    (s: unknown) => linearUrl.test(s as string),
  ],
  [
    'yup url() in an object and an array: linearSchema',
    5_000,
    (n: number) => ({ site: yupAttack(n), links: [yupAttack(n)] }),
    (n: number) => ({ site: prose(n), links: [prose(n)] }),
    (v: unknown) => yupPage.isValidSync(v),
  ],
  [
    'zod’s own .*abc$ (replaced on the compiled path): c…c\\n',
    500,
    (n: number) => `${'c'.repeat(n)}\n`,
    (n: number) => `${prose(n)}\n`,
    (s: unknown) => zodEndsWithPattern.test(s as string),
  ],
] as const) {
  const g = await growth(question, n, hostile, ordinary, run)
  printGrowth(g)
  results.push(g)
}
writeResults('hostile-strings', results)
