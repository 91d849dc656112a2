import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { toBruno, toInsomnia, toPostman } from '../../../src/openapi/index.js'
import { misuse } from '../../support/misuse.js'
import { documents } from './fixtures/documents.js'

// What the three exports share: purity, determinism, and how query text reaches a URL.

const exporters = [
  ['toPostman', toPostman],
  ['toInsomnia', toInsomnia],
  ['toBruno', toBruno],
] as const

// Every ID field of the three formats, with its value.
const ids = /"(id|_id|_postman_id|uid|parentId)":"[^"]*"/g

describe.each(exporters)('%s', (name, exporter) => {
  it.each(documents)('gives the same output twice for $name, apart from random IDs', ({ doc }) => {
    const first = JSON.stringify(exporter(doc))
    const second = JSON.stringify(exporter(doc))
    expect(first).not.toBe(second)
    expect(first.replace(ids, '')).toBe(second.replace(ids, ''))
    expect(JSON.stringify(exporter(doc, { seed: 'v1' }))).toBe(
      JSON.stringify(exporter(doc, { seed: 'v1' })),
    )
  })

  it('leaves the document unchanged', () => {
    for (const { doc } of documents) {
      const before = JSON.stringify(doc)
      exporter(doc)
      expect(JSON.stringify(doc)).toBe(before)
    }
  })

  it('takes name and baseUrl from the options', () => {
    const text = JSON.stringify(
      exporter(documents[0]!.doc, { name: 'Staging', baseUrl: 'https://staging.example.com' }),
    )
    expect(text).toContain('"Staging"')
    expect(text).toContain('https://staging.example.com')
    expect(text).not.toContain('http://localhost:3000"')
  })

  it('throws a TypeError naming a misspelt or mistyped option', () => {
    const doc = documents[0]!.doc
    expect(() => exporter(doc, { baseURL: 'https://x.test' } as never)).toThrow(
      misuse(
        'SG_ERR_UNKNOWN_OPTION',
        `shapeguard: ${name}(): baseURL is not an option (seed, name, baseUrl)`,
      ),
    )
    expect(() => exporter(doc, { seed: 1 } as never)).toThrow(
      misuse('SG_ERR_INVALID_OPTION', `shapeguard: ${name}(): seed must be a string`),
    )
    expect(() => exporter(doc, null as never)).toThrow(TypeError)
  })
})

describe('the URL text of Postman and Bruno', () => {
  const doc = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/search': {
        get: {
          operationId: 'search',
          security: [{ key: [] }, {}],
          parameters: [
            { name: 'q', in: 'query', required: true, example: 'a&b=c #d+e%' },
            { name: 'k=v', in: 'query', required: true, example: 'x' },
          ],
        },
      },
    },
    components: { securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'api_key' } } },
  }

  it('encodes what would split the query and keeps the parameters as they are', () => {
    const postman = toPostman(doc).item[0] as unknown as { request: { url: Record<string, any> } }
    expect(postman.request.url.raw).toBe('{{baseUrl}}/search?q=a%26b=c%20%23d%2Be%25&k%3Dv=x')
    expect(postman.request.url.query).toEqual([
      { key: 'q', value: 'a&b=c #d+e%' },
      { key: 'k=v', value: 'x' },
    ])
    const bruno = toBruno(doc).items[0] as unknown as { request: { url: string } }
    expect(bruno.request.url).toBe('{{baseUrl}}/search?q=a%26b=c%20%23d%2Be%25&k%3Dv=x')
  })

  it('keeps an API key variable readable in a second key of the same requirement', () => {
    const both = {
      ...doc,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          key: { type: 'apiKey', in: 'query', name: 'api_key' },
        },
      },
      security: [{ bearer: [], key: [] }],
    }
    const withKey = { ...both, paths: { '/k': { get: { operationId: 'k' } } } }
    const postman = toPostman(withKey).item[0] as unknown as {
      request: { url: Record<string, any> }
    }
    expect(postman.request.url.raw).toBe('{{baseUrl}}/k?api_key={{key}}')
    const bruno = toBruno(withKey).items[0] as unknown as { request: { url: string } }
    expect(bruno.request.url).toBe('{{baseUrl}}/k?api_key={{key}}')
  })
})

describe('src/openapi/exports', () => {
  it("imports nothing but node:crypto, its own files, the option and object checks and the engine's regex tree (no runtime dependency)", () => {
    const dir = join(import.meta.dirname, '../../../src/openapi/exports')
    const importsOf = (file: string) =>
      [...readFileSync(file, 'utf8').matchAll(/^(?:import|export|\}).* from '([^']+)'/gm)].map(
        (m) => m[1]!,
      )
    const imports = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => importsOf(join(dir, f)))
    expect(imports.length).toBeGreaterThan(10)
    const tree = '../../engine/regex/regex-tree.js'
    // The package-wide option checks, which import nothing else in src/ (biome.json).
    const shared = [
      '../../shared/check-option.js',
      '../../shared/error-codes.js',
      '../../shared/is-object.js',
    ]
    const others = imports.filter((i) => !i.startsWith('./') && !shared.includes(i))
    expect(others.sort()).toEqual([tree, 'node:crypto'])
    // The pattern samples' parser, whose one import (its character sets) imports nothing.
    expect(importsOf(join(dir, tree.replace(/\.js$/, '.ts')))).toEqual(['./chars.js'])
    expect(importsOf(join(dir, '../../engine/regex/chars.ts'))).toEqual([])
    // The option checks import only the registries, which import nothing else (no node:http).
    expect(importsOf(join(dir, '../../shared/check-option.ts'))).toEqual([
      './error-codes.js',
      './is-object.js',
    ])
    expect(importsOf(join(dir, '../../shared/error-codes.ts'))).toEqual(['./misuse-codes.js'])
    expect(importsOf(join(dir, '../../shared/misuse-codes.ts'))).toEqual([])
    expect(importsOf(join(dir, '../../shared/is-object.ts'))).toEqual([])
  })
})
