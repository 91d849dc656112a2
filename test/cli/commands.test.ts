import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ensureBuilt, hosts, onHost, shapeguard } from '../support/cli.js'

// Every command on the same users API written three ways (ESM with a default export, CommonJS
// with module.exports.app, TypeScript with a named export), on Express 4 and 5: one document,
// whatever the module's format or host.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 })

// The YAML parser the OpenAPI validator itself reads documents with.
const requireValidator = createRequire(
  createRequire(import.meta.url).resolve('@seriousme/openapi-schema-validator'),
)
const { parse: parseYaml } = requireValidator('yaml') as { parse: (text: string) => unknown }

const formats = [
  ['ESM', 'formats/app.mjs'],
  ['CommonJS', 'formats/app.cjs'],
  ['TypeScript', 'formats/app.ts'],
] as const

let out = ''
const documents: unknown[] = []
const collections = new Map<string, unknown[]>()

beforeAll(() => {
  ensureBuilt()
  out = mkdtempSync(join(tmpdir(), 'shapeguard-cli-'))
})

afterAll(() => {
  rmSync(out, { recursive: true, force: true })
})

function json(args: string[]): any {
  const run = shapeguard(args)
  expect(run.stderr).toBe('')
  expect(run.status).toBe(0)
  return JSON.parse(run.stdout)
}

describe.each(hosts)('on %s', (_, host) => {
  describe.each(formats)('a %s module', (format, fixture) => {
    const file = () => onHost(fixture, host)

    it('openapi writes the document generateOpenAPI() makes, the same for every module', () => {
      const doc = json(['openapi', file()])
      expect(doc.openapi).toBe('3.1.0')
      expect(doc.info).toEqual({ title: 'Users', version: '2.0.0' })
      expect(Object.keys(doc.paths)).toEqual(['/users', '/users/{id}'])
      expect(doc.paths['/users/{id}'].get.responses['200']).toBeDefined()
      documents.push(doc)
      expect(documents[0]).toEqual(doc)
    })

    it('openapi --format yaml --out writes the same document as YAML, creating folders', () => {
      const target = join(out, host, format, 'docs/openapi.yaml')
      const run = shapeguard(['openapi', file(), '--format', 'yaml', '--out', target])
      expect([run.status, run.stdout, run.stderr]).toEqual([0, '', ''])
      expect(parseYaml(readFileSync(target, 'utf8'))).toEqual(json(['openapi', file()]))
    })

    it.each([
      ['postman', (c: any) => c.item.map((i: any) => i.request.method)],
      [
        'insomnia',
        (c: any) => c.resources.filter((r: any) => r._type === 'request').map((r: any) => r.method),
      ],
      ['bruno', (c: any) => c.items.map((i: any) => i.request.method)],
    ])('%s writes its collection of the document, with the same IDs every run', (tool, methods) => {
      const collection = json([tool, file()])
      expect(methods(collection).sort()).toEqual(['GET', 'POST'])
      const seen = collections.get(tool) ?? []
      collections.set(tool, [...seen, collection])
      expect(seen[0] ?? collection).toEqual(collection)
    })

    it('check finds nothing to report', () => {
      const run = shapeguard(['check', file()])
      expect(run.stdout).toBe(`check: ${file()}: 2 operations\ncheck: 0 errors, 0 warnings\n`)
      expect(run.status).toBe(0)
    })

    it("fuzz passes once the handler's own 404 is allowed, and fails without", () => {
      const args = ['fuzz', file(), '--runs', '20', '--seed', '5']
      const pass = shapeguard([...args, '--status', 'GET /users/:id=404'])
      expect(pass.stdout).toMatch(/^fuzz: 2 routes, \d+ requests, no invariant broken \(seed 5\)\n/)
      expect(pass.stderr).toBe('')
      expect(pass.status).toBe(0)
      const fail = shapeguard(args)
      expect(fail.stdout).toContain(
        'GET /users/:id: answered 404, a status the OpenAPI document does not list',
      )
      expect(fail.status).toBe(1)
    })
  })
})
