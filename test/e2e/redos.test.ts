import request from 'supertest'
import * as v from 'valibot'
import { beforeAll, describe, expect, it } from 'vitest'
import * as y from 'yup'
import { z } from 'zod'
import { valibotAdapter } from '../../src/adapters/valibot/index.js'
import { yupAdapter } from '../../src/adapters/yup/index.js'
import {
  configureLogger,
  errorHandler,
  type Schema,
  shapeguard,
  validate,
} from '../../src/index.js'
import { defaultLimits } from '../../src/runtime/guards/limits.js'
import { hosts } from '../support/e2e.js'
import { key, knownVulnerable, pumpedAttack } from '../support/known-vulnerable.js'
import { patternRuns } from '../support/pattern-runs.js'
import { buildAvailable, yupIsStandard } from '../support/peer-features.js'

beforeAll(() => {
  configureLogger({ silent: true })
})

// Every built-in string check of the three libraries that a body field can carry.
const zodChecks = {
  url: z.url(),
  httpUrl: z.httpUrl(),
  email: z.email(),
  html5Email: z.email({ pattern: z.regexes.html5Email }),
  uuid: z.uuid(),
  guid: z.guid(),
  hostname: z.hostname(),
  emoji: z.emoji(),
  nanoid: z.nanoid(),
  cuid: z.cuid(),
  cuid2: z.cuid2(),
  ulid: z.ulid(),
  xid: z.xid(),
  ksuid: z.ksuid(),
  ipv4: z.ipv4(),
  ipv6: z.ipv6(),
  mac: z.mac(),
  cidrv4: z.cidrv4(),
  cidrv6: z.cidrv6(),
  base64: z.base64(),
  base64url: z.base64url(),
  e164: z.e164(),
  jwt: z.jwt(),
  hash: z.hash('sha256'),
  datetime: z.iso.datetime({ offset: true, local: true }),
  date: z.iso.date(),
  time: z.iso.time(),
  duration: z.iso.duration(),
  endsWith: z.string().endsWith('.io'),
  startsWith: z.string().startsWith('ab'),
  includes: z.string().includes('ab', { position: 2 }),
  lowercase: z.string().lowercase(),
  slugify: z.string().slugify(),
}

// Under npm run test:peers, a check the lowest valibot or yup lacks is left out (buildAvailable).
const str = (...actions: v.PipeItem<string, string, v.BaseIssue<unknown>>[]) =>
  v.optional(v.pipe(v.string(), ...actions))
const valibotChecks = buildAvailable({
  url: () => str(v.url()),
  email: () => str(v.email()),
  rfcEmail: () => str(v.rfcEmail()),
  uuid: () => str(v.uuid()),
  ulid: () => str(v.ulid()),
  nanoid: () => str(v.nanoid()),
  cuid2: () => str(v.cuid2()),
  emoji: () => str(v.emoji()),
  ip: () => str(v.ip()),
  ipv4: () => str(v.ipv4()),
  ipv6: () => str(v.ipv6()),
  mac: () => str(v.mac()),
  isoDate: () => str(v.isoDate()),
  isoDateTime: () => str(v.isoDateTime()),
  isoTimestamp: () => str(v.isoTimestamp()),
  isoWeek: () => str(v.isoWeek()),
  base64: () => str(v.base64()),
  creditCard: () => str(v.creditCard()),
  domain: () => str(v.domain()),
  hexColor: () => str(v.hexColor()),
  slug: () => str(v.slug()),
  decimal: () => str(v.decimal()),
  jwsCompact: () => str(v.jwsCompact()),
  isrc: () => str(v.isrc()),
  bic: () => str(v.bic()),
  imei: () => str(v.imei()),
  hash: () => str(v.hash(['sha256'])),
  endsWith: () => str(v.endsWith('.io')),
})

const yupChecks = buildAvailable<y.AnySchema>({
  url: () => y.string().url(),
  email: () => y.string().email(),
  uuid: () => y.string().uuid(),
  datetime: () => y.string().datetime(),
  datetimeOffset: () => y.string().datetime({ allowOffset: true, precision: 3 }),
  date: () => y.date(),
  trimmed: () => y.string().trim().lowercase(),
})

const routes: Record<string, Schema> = {
  zod: z.object(Object.fromEntries(Object.entries(zodChecks).map(([k, s]) => [k, s.optional()]))),
  valibot: valibotAdapter(v.object(valibotChecks)),
  yup: yupAdapter(y.object(yupChecks)),
  // Given as it is, a yup schema is validated through Standard Schema: that path must be safe too
  // (yup 1.7 and later, test/support/peer-features.ts).
  ...(yupIsStandard ? { 'bare yup': y.object(yupChecks) } : {}),
}
const fields: Record<string, string[]> = {
  zod: Object.keys(zodChecks),
  valibot: Object.keys(valibotChecks),
  yup: Object.keys(yupChecks),
  'bare yup': Object.keys(yupChecks),
}

// recheck's attack on every vulnerable library pattern (the audit, test/engine/redos-audit.test.ts,
// proves the others linear), pumped to the longest string the guards let through.
const max = defaultLimits.maxStringLength
const strings = knownVulnerable().flatMap((re) => pumpedAttack(re, max) ?? [])

describe.each(hosts)('%s: recheck’s attack strings through validate()', (_, express) => {
  it('finds attacks to send, each at the longest string the guards let through', () => {
    expect(strings).toHaveLength(knownVulnerable().length)
    for (const s of strings) expect(s.length).toBeGreaterThan(max - 20)
    for (const s of strings) expect(s.length).toBeLessThanOrEqual(max)
  })

  for (const library of Object.keys(routes)) {
    it(`answers every ${library} check without running a vulnerable pattern on an attack`, async () => {
      const app = express()
      app.use(express.json({ limit: '1mb' }))
      app.use(shapeguard())
      app.post('/', validate({ body: routes[library]! }), (_req, res) => {
        res.json({ ok: true })
      })
      app.use(errorHandler())
      const runs = await patternRuns(async () => {
        for (const field of fields[library]!) {
          for (const s of strings) {
            const res = await request(app)
              .post('/')
              .send({ [field]: s })
            expect(res.status, field).toBeLessThan(500)
          }
        }
      })
      // The vulnerable originals would take minutes on these strings.
      expect(runs.risky).toEqual([])
      // The count sees the libraries' own runs: zod's slugify() runs its `-+$` on its field.
      if (library === 'zod') expect(runs.all.get(key(/^-+|-+$/g))).toBeGreaterThan(0)
    }, 120_000)
  }
})
