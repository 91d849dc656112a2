import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { ensureBuilt, fixtures, root, shapeguard } from '../support/cli.js'
import { markedBlock } from '../support/readme-example.js'

// `shapeguard diff <base.json> <module|head.json>`: the app's document against a base written by
// `shapeguard openapi`, in text, JSON and SARIF, and its exit statuses.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 })

const dir = join(root, '.tmp/cli/diff')
const app = join(fixtures, 'evolving.mjs')
const v1 = { API_VERSION: '1' }
const v2 = { API_VERSION: '2' }

beforeAll(() => {
  ensureBuilt()
  mkdirSync(dir, { recursive: true })
  const base = shapeguard(['openapi', app, '--out', join(dir, 'base.json')], { env: v1 })
  expect(base.status).toBe(0)
  const head = shapeguard(['openapi', app, '--out', join(dir, 'head.json')], { env: v2 })
  expect(head.status).toBe(0)
})

describe('shapeguard diff', () => {
  it('finds nothing breaking between an app and the document of the same version: exit 0', () => {
    const run = shapeguard(['diff', 'base.json', app], { cwd: dir, env: v1 })
    expect(run.stdout).toBe(`diff: base.json → ${app}: 0 breaking, 0 warnings, 0 info\n`)
    expect(run.status).toBe(0)
  })

  it('lists the breaking changes of the next version, with their pointers, and exits 1', () => {
    const run = shapeguard(['diff', 'base.json', app], { cwd: dir, env: v2 })
    expect(run.status).toBe(1)
    const lines = run.stdout.split('\n')
    expect(lines.filter((l) => /^breaking /.test(l))).toEqual([
      'breaking request-property-became-required: request `body.email`: became required (POST /users)',
      'breaking response-required-property-removed: response `201.data.name`: required property removed (POST /users)',
      'breaking response-required-property-removed: response `200.data.name`: required property removed (GET /users/{id})',
    ])
    expect(run.stdout).toContain(
      `         at ${app}#/paths/~1users/post/requestBody/content/application~1json/schema/properties/email\n`,
    )
    expect(run.stdout).toMatch(
      /\ndiff: base\.json → .*evolving\.mjs: 3 breaking, 0 warnings, 1 info\n$/,
    )
    expect(run.stdout).not.toContain('operation-added')
    expect(
      shapeguard(['diff', 'base.json', app, '--info'], { cwd: dir, env: v2 }).stdout,
    ).toContain('info     operation-added: operation GET /health added\n')
  })

  it('diff-breaking: prints what docs/cli.md shows for two document files', () => {
    const run = shapeguard(['diff', 'base.json', 'head.json'], { cwd: dir })
    expect(run.status).toBe(1)
    expect(run.stdout).toBe(markedBlock('output', 'diff-breaking').code)
  })

  it('reads a head document file too, and writes every finding as JSON', () => {
    const run = shapeguard(['diff', 'base.json', 'head.json', '--format', 'json'], { cwd: dir })
    expect(run.status).toBe(1)
    const report = JSON.parse(run.stdout)
    expect(report.base).toBe('base.json')
    expect(report.findings.map((f: { rule: string }) => f.rule)).toEqual(
      expect.arrayContaining([
        'request-property-became-required',
        'response-required-property-removed',
        'operation-added',
      ]),
    )
    expect(report.findings[0]).toEqual({
      level: 'breaking',
      rule: 'request-property-became-required',
      document: 'head',
      pointer: '/paths/~1users/post/requestBody/content/application~1json/schema/properties/email',
      message: 'request `body.email`: became required (POST /users)',
      operations: ['POST /users'],
    })
  })

  it('writes SARIF 2.1.0 that code scanning takes: rules with help, results with locations', () => {
    const run = shapeguard(['diff', 'base.json', 'head.json', '--format', 'sarif'], { cwd: dir })
    expect(run.status).toBe(1)
    const sarif = JSON.parse(run.stdout)
    // The fields SARIF 2.1.0 requires, and those GitHub code scanning reads.
    expect(sarif.version).toBe('2.1.0')
    expect(sarif.$schema).toMatch(/sarif-2\.1\.0/)
    expect(sarif.runs).toHaveLength(1)
    const [runOf] = sarif.runs
    expect(runOf.tool.driver.name).toBe('shapeguard diff')
    const rules = runOf.tool.driver.rules as {
      id: string
      help: { text: string }
      shortDescription: { text: string }
      defaultConfiguration: { level: string }
    }[]
    for (const rule of rules) {
      expect(rule.id).toMatch(/^[a-z-]+$/)
      expect(rule.help.text).not.toBe('')
      expect(rule.shortDescription.text).not.toBe('')
      expect(['error', 'warning', 'note']).toContain(rule.defaultConfiguration.level)
    }
    expect(runOf.results.length).toBe(3)
    for (const result of runOf.results) {
      expect(rules[result.ruleIndex]!.id).toBe(result.ruleId)
      expect(result.level).toBe('error')
      expect(typeof result.message.text).toBe('string')
      const [location] = result.locations
      expect(['base.json', 'head.json']).toContain(location.physicalLocation.artifactLocation.uri)
      expect(location.physicalLocation.region.startLine).toBe(1)
      expect(location.logicalLocations[0].fullyQualifiedName).toMatch(/^\//)
    }
  })

  it('fails on warnings with --fail-on warning', () => {
    const base = JSON.parse(shapeguard(['openapi', app], { env: v1 }).stdout)
    const head = structuredClone(base)
    delete head.paths['/users'].post.responses['400']
    writeFileSync(join(dir, 'warns.json'), JSON.stringify(head))
    const run = shapeguard(['diff', 'base.json', 'warns.json'], { cwd: dir })
    expect(run.stdout).toContain(
      'warning  response-non-success-status-removed: response 400 removed (POST /users)\n',
    )
    expect(run.status).toBe(0)
    expect(
      shapeguard(['diff', 'base.json', 'warns.json', '--fail-on', 'warning'], { cwd: dir }).status,
    ).toBe(1)
  })

  it('escapes control characters from document keys: no line of text starts with one', () => {
    const base = JSON.parse(shapeguard(['openapi', app], { env: v1 }).stdout)
    const schema = base.paths['/users'].post.requestBody.content['application/json'].schema
    schema.properties['x\n::error file=app.ts::pwned'] = { type: 'string' }
    writeFileSync(join(dir, 'keys-base.json'), JSON.stringify(base))
    const head = structuredClone(base)
    head.paths['/users'].post.requestBody.content['application/json'].schema.properties[
      'x\n::error file=app.ts::pwned'
    ] = { type: 'integer' }
    writeFileSync(join(dir, 'keys-head.json'), JSON.stringify(head))
    const run = shapeguard(['diff', 'keys-base.json', 'keys-head.json'], { cwd: dir })
    expect(run.status).toBe(1)
    expect(run.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual([])
    expect(run.stdout).toContain(
      'breaking request-type-changed: request `body.x\\u000a::error file=app.ts::pwned`: type changed from string to integer (POST /users)\n' +
        '         at keys-head.json#/paths/~1users/post/requestBody/content/application~1json/schema/properties/x\\u000a::error file=app.ts::pwned\n',
    )
    const sarif = JSON.parse(
      shapeguard(['diff', 'keys-base.json', 'keys-head.json', '--format', 'sarif'], { cwd: dir })
        .stdout,
    )
    for (const result of sarif.runs[0].results) expect(result.message.text).not.toMatch(/\n/)
  })

  it('reads hostile documents: 5,000 levels deep is a warning, malformed ones no stack trace', () => {
    const deep = (type: string) =>
      `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{"requestBody":{"content":{"application/json":{"schema":${'{"type":"object","properties":{"a":'.repeat(5000)}{"type":"${type}"}${'}}'.repeat(5000)}}}},"responses":{"200":{"description":"ok"}}}}}}`
    writeFileSync(join(dir, 'deep-base.json'), deep('string'))
    writeFileSync(join(dir, 'deep-head.json'), deep('integer'))
    const run = shapeguard(['diff', 'deep-base.json', 'deep-head.json'], { cwd: dir })
    expect(run.stderr).toBe('')
    expect(run.stdout).toMatch(
      /^warning {2}schema-too-deep: request `body(\.a){64}`: nested over 64 schemas deep, not compared below \(POST \/x\)\n/,
    )
    expect(run.status).toBe(0)
    expect(
      shapeguard(['diff', 'deep-base.json', 'deep-head.json', '--fail-on', 'warning'], { cwd: dir })
        .status,
    ).toBe(1)
    const doc = (schema: unknown, schemas: object = {}) =>
      JSON.stringify({
        openapi: '3.1.0',
        paths: { '/x': { post: { requestBody: { content: { 'application/json': { schema } } } } } },
        components: { schemas },
      })
    const malformed = {
      'number.json': doc(5),
      'null-properties.json': doc({ type: 'object', properties: null, required: null }),
      'nowhere.json': doc({ $ref: '#/components/schemas/Nowhere' }),
      'cycle.json': doc(
        { $ref: '#/components/schemas/A' },
        {
          A: { $ref: '#/components/schemas/B' },
          B: { $ref: '#/components/schemas/A' },
        },
      ),
    }
    for (const [name, text] of Object.entries(malformed)) {
      writeFileSync(join(dir, name), text)
      for (const [b, h] of [
        [name, 'head.json'],
        ['head.json', name],
      ]) {
        const each = shapeguard(['diff', b!, h!], { cwd: dir })
        expect(each.stderr).toBe('')
        expect([0, 1]).toContain(each.status)
      }
    }
  })

  it('exits 2 on a usage error: a missing argument, a bad option, a base that is no document', () => {
    const missing = shapeguard(['diff', 'base.json'], { cwd: dir })
    expect(missing.stderr).toBe(
      'shapeguard: shapeguard diff takes one more argument: shapeguard diff <base.json> <module|head.json>\nSee shapeguard diff --help.\n',
    )
    expect(missing.status).toBe(2)
    const format = shapeguard(['diff', 'base.json', 'head.json', '--format', 'xml'], { cwd: dir })
    expect(format.stderr).toBe('shapeguard: --format must be text, json, sarif, not xml\n')
    expect(format.status).toBe(2)
    expect(shapeguard(['diff', app, 'head.json'], { cwd: dir }).status).toBe(2)
    const absent = shapeguard(['diff', 'nope.json', 'head.json'], { cwd: dir })
    expect(absent.stderr).toMatch(/^shapeguard: nope\.json: no such file/)
    expect(absent.status).toBe(2)
    writeFileSync(join(dir, 'swagger.json'), '{"swagger":"2.0","paths":{}}')
    const swagger = shapeguard(['diff', 'swagger.json', 'head.json'], { cwd: dir })
    expect(swagger.stderr).toMatch(/^shapeguard: the base document is not an OpenAPI 3\.x document/)
    expect(swagger.status).toBe(2)
    expect(shapeguard(['diff', '--help']).stdout).toMatch(
      /^Usage: shapeguard diff <base\.json> <module\|head\.json> \[options\]/,
    )
  })
})
