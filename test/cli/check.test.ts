import { createRequire } from 'node:module'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { ensureBuilt, hosts, onHost, shapeguard } from '../support/cli.js'

// `shapeguard check`: the document against the official OpenAPI schema (errors), and what its
// operations lack (warnings; errors too with --strict).

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 })

beforeAll(() => {
  ensureBuilt()
})

describe.each(hosts)('shapeguard check on %s', (_, host) => {
  it('warns of a POST without a body schema, a route without a response schema, an unreadable mount', () => {
    const file = onHost('gaps.mjs', host)
    const run = shapeguard(['check', file])
    expect(run.stdout).toBe(
      [
        `check: ${file}: 3 operations`,
        'warning document: generateOpenAPI app: a sub-application mounted at /admin (mount a router instead) is not documented',
        'warning POST /ping: no request body schema: the body reaches the handler as the client sent it (give the route a body schema, z.object({}) for none)',
        'warning GET /health: no response schema: its data is neither stripped nor typed (give the route a response schema)',
        'check: 0 errors, 3 warnings',
        '',
      ].join('\n'),
    )
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
  })

  it("openapi writes the document all the same, with generateOpenAPI()'s warning on stderr", () => {
    const run = shapeguard(['openapi', onHost('gaps.mjs', host)])
    expect(run.status).toBe(0)
    expect(Object.keys(JSON.parse(run.stdout).paths)).toEqual(['/ping', '/health', '/users'])
    expect(run.stderr).toBe(
      'warning: generateOpenAPI app: a sub-application mounted at /admin (mount a router instead) is not documented\n',
    )
  })

  it('fuzz lists what it could not fuzz', () => {
    const run = shapeguard(['fuzz', onHost('gaps.mjs', host), '--runs', '5', '--seed', '1'])
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/^fuzz: 3 routes, \d+ requests, no invariant broken \(seed 1\)\n/)
    expect(run.stdout).toContain(
      '\n  not fuzzed: a sub-application mounted at /admin (mount a router instead)\n',
    )
  })

  it('fails on warnings with --strict', () => {
    const run = shapeguard(['check', onHost('gaps.mjs', host), '--strict'])
    expect(run.stdout).toContain('check: 0 errors, 3 warnings\n')
    expect(run.status).toBe(1)
  })
})

describe('shapeguard check on a document file', () => {
  it('reports each violation of the OpenAPI schema as an error, and exits 1', () => {
    const run = shapeguard(['check', 'documents/invalid.json'])
    expect(run.stdout).toBe(
      [
        'check: documents/invalid.json: 1 operation',
        "error   document: /info: must have required property 'version' (OpenAPI schema)",
        'warning GET /users: no success response documented',
        'warning GET /users: no error status documented',
        'check: 1 error, 2 warnings',
        '',
      ].join('\n'),
    )
    expect(run.status).toBe(1)
  })

  it('reads YAML, and warns of an operation that documents no error status', () => {
    const run = shapeguard(['check', 'documents/no-errors.yaml'])
    expect(run.stdout).toBe(
      [
        'check: documents/no-errors.yaml: 1 operation',
        'warning GET /users: no error status documented',
        'check: 0 errors, 1 warning',
        '',
      ].join('\n'),
    )
    expect(run.status).toBe(0)
    expect(shapeguard(['check', 'documents/no-errors.yaml', '--strict']).status).toBe(1)
  })

  it('names a missing document file', () => {
    const run = shapeguard(['check', 'documents/missing.yaml'])
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(/^shapeguard: documents\/missing\.yaml: no such file/)
  })
})

it('names the validator, and how to install it, when it is not installed', () => {
  const name = '@seriousme/openapi-schema-validator'
  expect(createRequire(import.meta.url).resolve(name)).toBeTruthy()
  const hook = `data:text/javascript,${encodeURIComponent(`
    import { registerHooks } from 'node:module'
    registerHooks({ resolve(specifier, context, next) {
      if (specifier === '${name}') throw Object.assign(new Error("Cannot find package '${name}'"), { code: 'ERR_MODULE_NOT_FOUND' })
      return next(specifier, context)
    } })`)}`
  const run = shapeguard(['check', 'formats/app.mjs'], {
    env: { NODE_OPTIONS: `--import=${hook}` },
  })
  expect(run).toEqual({
    status: 2,
    stdout: '',
    stderr: `shapeguard: shapeguard check validates the document with the optional package ${name}, which is not installed. Install it with: npm install -D ${name}\n`,
  })
})
