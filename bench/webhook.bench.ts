import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { writeResults } from './lib.js'

// Question: what does verifyWebhook cost per request, next to the bare HMAC it must compute
// anyway (crypto.createHmac over the same bytes, nothing else)? The request is a ~2 KB event
// already read by express.raw(); the middleware's whole work runs: find the raw bytes, read and
// split the headers, parse the timestamp, HMAC, constant-time compare, call next().
// Each case runs in a fresh process (bench/fixtures/webhook-case.ts) and reports its CPU time per
// call, garbage collection included: measured in one process, one case's collections land in the
// next case's time (that made an HMAC that allocates more look faster than the bare one). Rounds
// run every case once, each scheme's bare HMAC just before it; a scheme's figure is the median
// of its per-round ratios. Target: <= 1.2.

const ROUNDS = 15
const schemes = ['github', 'stripe', 'svix'] as const
const fixture = join(import.meta.dirname, 'fixtures/webhook-case.ts')

function nsPerCall(name: string): number {
  const out = execFileSync(process.execPath, ['--import', 'tsx', fixture, name], {
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  return Number(out.trim())
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

const rounds: Record<string, { bare: number[]; verify: number[] }> = Object.fromEntries(
  schemes.map((s) => [s, { bare: [], verify: [] }]),
)
for (let round = 0; round < ROUNDS; round++) {
  for (const scheme of schemes) {
    rounds[scheme]!.bare.push(nsPerCall(`${scheme} bare`))
    rounds[scheme]!.verify.push(nsPerCall(scheme))
  }
}
const results: Record<string, { bareNs: number; verifyNs: number; ratio: number }> = {}
process.stdout.write('\nverifyWebhook vs the bare HMAC, CPU ns per call (median of rounds)\n')
for (const scheme of schemes) {
  const { bare, verify } = rounds[scheme]!
  const ratio = Number(median(verify.map((v, i) => v / bare[i]!)).toFixed(3))
  results[scheme] = {
    bareNs: Math.round(median(bare)),
    verifyNs: Math.round(median(verify)),
    ratio,
  }
  process.stdout.write(
    `  ${scheme.padEnd(8)} bare ${String(results[scheme].bareNs).padStart(6)} ns  verify ${String(results[scheme].verifyNs).padStart(6)} ns  ${ratio.toFixed(3)}x\n`,
  )
}
writeResults(`webhook-node${process.versions.node.split('.')[0]}`, {
  body: '~2 KB',
  rounds: ROUNDS,
  results,
})
