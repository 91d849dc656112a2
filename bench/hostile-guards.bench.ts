import { guardBody, resolveLimits } from '../src/runtime/guards/index.js'
import { sanitizeString } from '../src/runtime/guards/sanitize.js'
import { isSafeRequestId } from '../src/runtime/middleware/request-id.js'
import { growth, printGrowth, writeResults } from './lib.js'

// Question: does each guard's time stay linear in a hostile input, or flat where it stops at a
// limit? Each runs on the hostile input at size n (the baseline) and at 10n, and on an ordinary
// input: a body nested far past maxDepth (flat: the walk stops at the limit) next to an ordinary
// body of 10n nodes; a string of zero-width and bidi characters (linear) next to clean prose of
// 10n; an overlong X-Request-Id header (flat: rejected by its length) next to one of 128
// characters. The tests prove the same by counting reads (test/runtime/guards/body-guard.test.ts,
// test/runtime/guards/sanitize.test.ts, test/runtime/middleware/request-id.test.ts).

const limits = resolveLimits()
const nested = (levels: number) => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`)
// `size` nodes, no deeper than 2 levels and no array longer than 99.
const ordinaryBody = (size: number) =>
  Object.fromEntries(Array.from({ length: size / 100 }, (_, i) => [`k${i}`, Array(99).fill(1)]))
const prose = (n: number) => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n)

const results = []
for (const [question, n, hostile, ordinary, run] of [
  [
    'guardBody: arrays nested n levels deep (maxDepth 20)',
    10_000,
    nested,
    ordinaryBody,
    (body: unknown) => {
      try {
        guardBody(body, limits)
      } catch {
        // BODY_TOO_DEEP, as expected
      }
    },
  ],
  [
    'sanitizeString: zero-width and bidi characters around one letter',
    100_000,
    (n: number) => `${'\u200B'.repeat(n / 2)}a${'\u202E'.repeat(n / 2)}`,
    prose,
    (s: unknown) => sanitizeString(s as string),
  ],
  [
    'isSafeRequestId: an X-Request-Id header of n characters',
    10_000,
    (n: number) => `${'a'.repeat(n)}!`,
    () => 'a'.repeat(128),
    (s: unknown) => isSafeRequestId(s),
  ],
] as const) {
  const g = await growth(question, n, hostile, ordinary, run)
  printGrowth(g)
  results.push(g)
}
writeResults('hostile-guards', results)
