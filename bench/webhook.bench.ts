import { createHmac } from 'node:crypto'
import type { Request, Response } from 'express'
import { verifyWebhook } from '../src/index.js'
import { compare, printComparison, writeResults } from './lib.js'

// Question: what does verifyWebhook cost per request, next to the bare HMAC it must compute
// anyway (crypto.createHmac over the same bytes, nothing else)? One comparison per scheme, each
// against its own bare HMAC, in one run. The request is a ~2 KB event (a typical Stripe event)
// already read by express.raw(); the middleware's whole work runs: find the raw bytes, read and
// split the headers, parse the timestamp, HMAC, constant-time compare, call next().
// Ratios are of time (mean ns over the bare HMAC's): target <= 1.2.

const body = Buffer.from(
  JSON.stringify({
    id: 'evt_1NG8Du2eZvKYlo2CUI79vXWy',
    object: 'event',
    type: 'payment_intent.succeeded',
    data: {
      object: Object.fromEntries(
        Array.from({ length: 40 }, (_, i) => [`field_${i}`, `value ${i} ${'x'.repeat(24)}`]),
      ),
    },
  }),
)
const secret = 'whsec_bench_secret_0123456789abcdef'
const svixSecret = `whsec_${Buffer.from('svix bench secret 0123456789').toString('base64')}`
const svixKey = Buffer.from('svix bench secret 0123456789')
const ts = () => String(Math.floor(Date.now() / 1000))

function request(headers: Record<string, string>): Request {
  return { headers, body } as unknown as Request
}
const res = {} as Response
let passed = 0
const next = (err?: unknown) => {
  if (err !== undefined) throw err
  passed++
}

const githubSig = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
const github = verifyWebhook({ provider: 'github', secret })
const githubReq = request({ 'x-hub-signature-256': githubSig })

const t = ts()
const stripeSig = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex')
const stripe = verifyWebhook({ provider: 'stripe', secret, toleranceSecs: 3600 })
const stripeReq = request({ 'stripe-signature': `t=${t},v1=${stripeSig}` })

const svixSig = createHmac('sha256', svixKey).update(`msg_1.${t}.`).update(body).digest('base64')
const svix = verifyWebhook({ provider: 'svix', secret: svixSecret, toleranceSecs: 3600 })
const svixReq = request({
  'svix-id': 'msg_1',
  'svix-timestamp': t,
  'svix-signature': `v1,${svixSig}`,
})

const results = []
for (const [name, bare, verify] of [
  [
    'github',
    () => createHmac('sha256', secret).update(body).digest('hex'),
    () => github(githubReq, res, next),
  ],
  [
    'stripe',
    () => createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex'),
    () => stripe(stripeReq, res, next),
  ],
  [
    'svix',
    () => createHmac('sha256', svixKey).update(`msg_1.${t}.`).update(body).digest('base64'),
    () => svix(svixReq, res, next),
  ],
] as const) {
  const c = await compare(
    `${name}: verifyWebhook vs bare HMAC, ${body.length} B body`,
    'bare HMAC',
    {
      'bare HMAC': bare,
      verifyWebhook: verify,
    },
    { rounds: 7 },
  )
  printComparison(c)
  const timeRatio = Number((1 / c.cases[1]!.vsBaseline).toFixed(3))
  process.stdout.write(`  ${name}: verifyWebhook takes ${timeRatio}x the bare HMAC's time\n`)
  results.push({ ...c, ratios: { 'verifyWebhook/bare HMAC time': timeRatio } })
}
if (passed === 0) throw new Error('no request passed verification')
writeResults('webhook', results)
