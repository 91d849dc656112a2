import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { configureLogger, shapeguard } from '../../src/index.js'
import { type Express, hosts } from '../support/e2e.js'

// shapeguard() switches each request and its response to V8's dictionary mode where that helps
// (useDictionaryMode in src/runtime/core/dictionary-mode.ts): what stays the same for the app,
// and on which Node line it happens.
beforeAll(() => {
  configureLogger({ silent: true })
})

const kContext = Symbol.for('shapeguard.context')

// What a handler sees of its request and response: the own keys (shapeguard's context left out)
// and the descriptors of the two properties shapeguard deletes and defines again.
function ownView(req: object, res: object) {
  const keys = (o: object) =>
    Reflect.ownKeys(o)
      .filter((k) => k !== kContext)
      .map(String)
      .sort()
  const descriptor = (o: object, key: string, other: object) => {
    const d = Object.getOwnPropertyDescriptor(o, key)
    return d === undefined ? undefined : { ...d, value: d.value === other }
  }
  return {
    req: keys(req),
    res: keys(res),
    reqRes: descriptor(req, 'res', res),
    resReq: descriptor(res, 'req', req),
  }
}

describe.each(hosts)('requests and responses after shapeguard() on %s', (_, express: Express) => {
  it('keep their own properties, values and attributes', async () => {
    const view = async (guarded: boolean) => {
      const app = express()
      if (guarded) app.use(shapeguard())
      app.get('/', (req, res) => {
        res.json(ownView(req, res))
      })
      return (await request(app).get('/')).body
    }
    const bare = await view(false)
    expect(bare.reqRes).toEqual({
      value: true,
      writable: true,
      enumerable: true,
      configurable: true,
    })
    expect(bare.resReq).toEqual({
      value: true,
      writable: true,
      enumerable: true,
      configurable: true,
    })
    // The same, plus `req.id`, an own property of the request by design.
    expect(await view(true)).toEqual({ ...bare, req: [...bare.req, 'id'].sort() })
  })

  it('leave a property that cannot be deleted as it is', async () => {
    const app = express()
    app.use((req, _res, next) => {
      const res = req.res!
      Object.defineProperty(res, 'req', { value: req, writable: false, configurable: false })
      next()
    })
    app.use(shapeguard())
    app.get('/', (req, res) => {
      res.ok({ data: ownView(req, res).resReq })
    })
    const answer = await request(app).get('/')
    expect(answer.status).toBe(200)
    expect(answer.body.data).toEqual({
      value: true,
      writable: false,
      enumerable: true,
      configurable: false,
    })
  })
})

// The mode measured to help on each supported Node line (bench/property-reads.bench.ts and
// bench/http.bench.ts on each line; src/runtime/core/dictionary-mode.ts): a line not listed here
// fails until it is measured and added.
const measuredChoice: Record<string, 'dictionary' | 'fast'> = {
  '22': 'dictionary',
  '24': 'fast',
  '26': 'fast',
}

describe("V8's object modes", () => {
  const fixture = join(import.meta.dirname, 'fixtures/dictionary-mode.ts')
  const modes = (override?: '0' | '1') => {
    const env = { ...process.env }
    delete env.SHAPEGUARD_DICTIONARY_MODE
    if (override !== undefined) env.SHAPEGUARD_DICTIONARY_MODE = override
    const run = spawnSync(
      process.execPath,
      ['--allow-natives-syntax', '--import', 'tsx', fixture],
      { encoding: 'utf8', timeout: 60_000, env },
    )
    expect(run.status, run.stderr).toBe(0)
    return JSON.parse(run.stdout)
  }
  const fast = { req: true, res: true }
  const dictionary = { req: false, res: false }
  const expected = (guarded: typeof fast) => ({
    'express 4': { bare: fast, guarded, sub: guarded },
    'express 5': { bare: fast, guarded, sub: guarded },
  })
  const line = process.versions.node.split('.')[0]!

  it(`are what was measured to help on Node ${line}, with shapeguard() and without it`, () => {
    const choice = measuredChoice[line]
    expect(
      choice,
      `Node ${line}: measure both modes and add the faster to measuredChoice`,
    ).toBeDefined()
    expect(modes()).toEqual(expected(choice === 'dictionary' ? dictionary : fast))
  }, 60_000)

  it('follow SHAPEGUARD_DICTIONARY_MODE where it is set', () => {
    expect(modes('1')).toEqual(expected(dictionary))
    expect(modes('0')).toEqual(expected(fast))
  }, 60_000)
})
