import { execFileSync } from 'node:child_process'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { ensureBuilt, hosts, onHost, shapeguard } from '../support/cli.js'

// `shapeguard fuzz` exits 1 with the shrunk request and a command that replays it.

// The summary's line for an app without notFoundHandler() (secured.mjs): no 405 check.
const noMethods =
  '  not fuzzed: methods: undeclared methods not checked, the app mounts no notFoundHandler() to answer them 405 with Allow (Express answers 404 on its own): mount it after the routes\n'

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 })

beforeAll(() => {
  ensureBuilt()
})

describe.each(hosts)('shapeguard fuzz on %s', (_, host) => {
  it('exits 1 with the curl line of the smallest breaking request and the replay command', () => {
    onHost('crash.mjs', host)
    const cwd = onHost('crash.mjs', host).replace(/\/crash\.mjs$/, '')
    const run = shapeguard(['fuzz', 'crash.mjs', '--runs', '50', '--seed', '42'], { cwd })
    expect(run.status).toBe(1)
    expect(run.stderr).toBe('')
    const lines = run.stdout.split('\n')
    expect(lines[0]).toMatch(/^fuzz: 1 route, \d+ requests, 1 broken invariant \(seed 42\)$/)
    expect(lines.slice(1)).toEqual([
      '',
      'POST /posts: answered 500: a request must never get a 5xx',
      `  curl --globoff -X POST 'http://localhost:3000/posts' -H 'content-type: application/json' --data-raw '{"title":"a","tags":[]}'`,
      "  replay: shapeguard fuzz crash.mjs --seed 42 --routes 'POST /posts' --runs 50",
      '',
    ])
    const replay = shapeguard(
      ['fuzz', 'crash.mjs', '--seed', '42', '--routes', 'POST /posts', '--runs', '50'],
      { cwd },
    )
    expect(replay).toEqual(run)
  })

  it('sends uploads and cookies: a curl line that writes the multipart body byte for byte', () => {
    const file = onHost('uploads.mjs', host)
    const cwd = file.replace(/\/uploads\.mjs$/, '')
    const run = shapeguard(['fuzz', 'uploads.mjs', '--runs', '30', '--seed', '5'], { cwd })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(1)
    const lines = run.stdout.split('\n')
    expect(lines[0]).toMatch(/^fuzz: 2 routes, \d+ requests, 1 broken invariant \(seed 5\)$/)
    expect(lines[2]).toBe('POST /avatars: answered 500: a request must never get a 5xx')
    expect(lines[3]).toMatch(
      /^ {2}printf '.*' \| curl --globoff -X POST 'http:\/\/localhost:3000\/avatars' -H 'content-type: multipart\/form-data; boundary=shapeguard-fuzz-7c1e5a' --data-binary @-$/,
    )
    const body = execFileSync('sh', ['-c', lines[3]!.trim().replace(/ \| curl .*$/, '')])
    expect(body.toString('latin1')).toMatch(/name="avatar"; filename="[^"]* [^"]*\.png"/)
    expect(lines[4]).toBe(
      "  replay: shapeguard fuzz uploads.mjs --seed 5 --routes 'POST /avatars' --runs 30",
    )
    const cookies = shapeguard(
      [
        'fuzz',
        'uploads.mjs',
        '--runs',
        '30',
        '--seed',
        '5',
        '--routes',
        'GET /me',
        '--phases',
        'random',
      ],
      { cwd },
    )
    expect(cookies.stdout).toBe(
      'fuzz: 1 route, 30 requests, no invariant broken (seed 5)\n  GET /me: 30 requests\n',
    )
    expect(cookies.status).toBe(0)
  })

  it('points the curl line at --base-url and sends --auth and --header with every request', () => {
    const file = onHost('secured.mjs', host)
    const args = ['fuzz', file, '--runs', '10', '--seed', '1']
    const pass = shapeguard([...args, '--auth', 'Bearer t0ken', '--header', 'x-tenant: acme'])
    // Ten generated requests, and the ignored_auth check's two (no token, a wrong one).
    expect(pass.stdout).toBe(
      `fuzz: 1 route, 12 requests, no invariant broken (seed 1)\n  GET /me: 12 requests\n${noMethods}`,
    )
    expect(pass.status).toBe(0)
    const noTenant = shapeguard([...args, '--auth', 'Bearer t0ken'])
    expect(noTenant.stdout).toContain('GET /me: answered 404')
    expect(noTenant.status).toBe(1)
    // A CI log shows neither the token in the curl line nor in the replay command.
    expect(noTenant.stdout).not.toContain('t0ken')
    expect(noTenant.stdout).toContain("-H 'authorization: Bearer ***'")
    expect(noTenant.stdout).toContain("--auth '***'")
    expect(noTenant.stdout).toContain('shown as ***: give them again to replay')
    // Without the tenant the route answers 404 (without the token, the 401 its security declares).
    const fail = shapeguard([
      ...args,
      '--auth',
      'Bearer t0ken',
      '--base-url',
      'https://staging.example.com',
    ])
    expect(fail.status).toBe(1)
    expect(fail.stdout).toContain("curl --globoff -X GET 'https://staging.example.com/me'")
  })

  it('takes --auth scheme=value for a scheme the app declares, and refuses one it does not', () => {
    const file = onHost('secured.mjs', host)
    const args = ['fuzz', file, '--runs', '5', '--seed', '1']
    const pass = shapeguard([...args, '--auth', 'bearer=t0ken', '--header', 'x-tenant: acme'])
    expect(pass.stdout).toBe(
      `fuzz: 1 route, 7 requests, no invariant broken (seed 1)\n  GET /me: 7 requests\n${noMethods}`,
    )
    expect(pass.status).toBe(0)
    const noTenant = shapeguard([...args, '--auth', 'bearer=t0ken'])
    expect(noTenant.status).toBe(1)
    expect(noTenant.stdout).not.toContain('t0ken')
    expect(noTenant.stdout).toContain("-H 'authorization: Bearer ***'")
    expect(noTenant.stdout).toContain("--auth 'bearer=***'")
    const typo = shapeguard([...args, '--auth', 'bearr=t0ken'])
    expect(typo.status).toBe(2)
    expect(typo.stderr).toContain(
      "--auth: bearr is not a security scheme of the app (bearer); give the Authorization header as 'Bearer <token>'",
    )
    expect(typo.stderr).not.toContain('t0ken')
    // Without credentials the secured route is checked for its 401s only, and said so.
    const none = shapeguard(args)
    expect(none.status).toBe(0)
    expect(none.stdout).toContain(
      '  not fuzzed: GET /me: secured (bearer) and no credentials were given for it, only its 401 answers were checked: give fuzzRoutes auth\n',
    )
  })

  it('masks --auth and --header values that quoting changes or that hold one another', () => {
    const file = onHost('secured.mjs', host)
    const run = shapeguard([
      ...['fuzz', file, '--runs', '3', '--seed', '1'],
      // A token read from a file that ends in CRLF, and values that need $'…' or hold a quote.
      ...['--auth', 'Bearer t0ken-s3cret\r'],
      ...['--header', 'x-nl: l1ne\ns3cret'],
      ...['--header', 'x-tab: t4b\ts3cret'],
      ...['--header', "x-quote: it's\rs3cret"],
      ...['--header', 'x-utf: ünï-s3cret'],
      // One value inside another: masking the shorter first used to leave the longer one's rest.
      ...['--header', 'x-short: k3y'],
      ...['--header', 'x-long: k3y-and-the-r3st'],
    ])
    expect(run.status).toBe(1)
    const output = run.stdout + run.stderr
    for (const secret of ['s3cret', 'k3y', 't0ken', 'r3st', 'l1ne', 't4b', "it's", 'ünï'])
      expect(output).not.toContain(secret)
    const curl = run.stdout.split('\n').find((line) => line.startsWith('  curl ')) ?? ''
    // The first failure is the ignored_auth check's request without credentials (Node refuses
    // the newline of x-nl): no Authorization there; were there one, it would read Bearer ***.
    expect(curl).not.toMatch(/authorization: (?!Bearer \*\*\*')/)
    for (const name of ['x-nl', 'x-tab', 'x-quote', 'x-utf', 'x-short', 'x-long'])
      expect(curl).toContain(`-H '${name}: ***'`)
    expect(run.stdout).toContain("--header 'x-long: ***'")
  })

  it('reads streaming routes within bounds: an undeclared field of an SSE event, replayed with curl -N', () => {
    const file = onHost('streams.mjs', host)
    const cwd = file.replace(/\/streams\.mjs$/, '')
    const args = ['fuzz', 'streams.mjs', '--runs', '10', '--seed', '4', '--stream-events', '5']
    const run = shapeguard(args, { cwd })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(1)
    expect(run.stdout.split('\n').slice(1)).toEqual([
      '',
      "GET /chat: answered 200 with events.token.data.secret, which the event's schema does not declare",
      "  curl -N --globoff -X GET 'http://localhost:3000/chat?n=1' -H 'accept: text/event-stream'",
      "  replay: shapeguard fuzz streams.mjs --seed 4 --routes 'GET /chat' --runs 10 --stream-events 5",
      '',
    ])
    const rows = shapeguard(
      [...args, '--routes', 'GET /rows', '--stream-ms', '500', '--phases', 'random'],
      { cwd },
    )
    expect(rows.stdout).toBe(
      'fuzz: 1 route, 10 requests, no invariant broken (seed 4)\n  GET /rows: 10 requests\n',
    )
    expect(rows.status).toBe(0)
  })
})

describe('shapeguard fuzz route keys', () => {
  it('take the method in any case, in --routes and in --status', () => {
    const args = ['fuzz', 'formats/app.mjs', '--runs', '10', '--seed', '2', '--phases', 'random']
    const run = shapeguard([
      ...args,
      '--routes',
      'get /users/:id,',
      '--status',
      'get /users/:id=404',
    ])
    expect(run.stdout).toBe(
      'fuzz: 1 route, 10 requests, no invariant broken (seed 2)\n  GET /users/:id: 10 requests\n',
    )
    expect(run.status).toBe(0)
  })
})

describe('shapeguard fuzz on a CommonJS app', () => {
  it("runs the app's own (CommonJS) copy of shapeguard, whose logger it silences", () => {
    const run = shapeguard([
      'fuzz',
      'formats/app.cjs',
      '--runs',
      '5',
      '--seed',
      '3',
      '--status',
      '404',
    ])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
  })
})

it('names fast-check when it is not installed', () => {
  const hook = `data:text/javascript,${encodeURIComponent(`
    import { registerHooks } from 'node:module'
    registerHooks({ resolve(specifier, context, next) {
      if (specifier === 'fast-check') throw Object.assign(new Error("Cannot find module 'fast-check'"), { code: 'MODULE_NOT_FOUND' })
      return next(specifier, context)
    } })`)}`
  const run = shapeguard(['fuzz', 'formats/app.mjs'], { env: { NODE_OPTIONS: `--import=${hook}` } })
  expect(run.status).toBe(2)
  expect(run.stderr).toMatch(
    /^shapeguard: arbitrary\(\) and fuzzRoutes\(\) \(shapeguard\/testing\): needs the optional package "fast-check", which is not installed, install it with: npm install -D fast-check/,
  )
})
