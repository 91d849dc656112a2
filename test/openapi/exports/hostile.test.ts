import { collectionSchema } from '@usebruno/schema'
import { convert } from 'insomnia-importers'
import postman from 'postman-collection'
import { describe, expect, it } from 'vitest'
import { toBruno, toInsomnia, toPostman } from '../../../src/openapi/index.js'
import { countedReads } from '../../support/counted-reads.js'
import { evil, hostileDocument, maxReads } from '../../support/hostile-document.js'

// The document is untrusted input: a hostile one must neither crash nor stall an export, nor
// smuggle template expressions or prototype keys into it. How long an export takes is measured
// by bench/exports.bench.ts.

const exporters = [
  ['toPostman', toPostman],
  ['toInsomnia', toInsomnia],
  ['toBruno', toBruno],
] as const

const hostile = hostileDocument()

// Our own variables are `{{name}}` or `{{ _.name }}` with an identifier inside; anything else
// that opens a template came from the document.
// Descriptions and the names of collections, folders and requests are shown, never expanded, by
// all three tools: they keep the document's text and are left out of the scan. The names of
// parameters, headers and fields are expanded and stay in.
const displayed = ['_type', 'request', 'item', 'items', '_postman_id', 'seq', 'ignore']

function foreignTemplates(value: unknown): string[] {
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key, v) {
    if (key === 'description' || key === 'docs') return undefined
    const meta = Object.keys(this).length === 1
    if (key === 'name' && (meta || displayed.some((k) => Object.hasOwn(this, k)))) return undefined
    return v
  })
  return [...text.matchAll(/\{[{%#]/g)]
    .map((m) => text.slice(m.index, m.index + 40))
    .filter((s) => !/^\{\{( _\.)?[A-Za-z_][A-Za-z0-9_]* ?\}\}/.test(s))
}

describe.each(exporters)('%s with a hostile document', (_name, exporter) => {
  it('stops at a budget of work, pollutes nothing and writes no template from the document', () => {
    const counted = countedReads(hostile, maxReads)
    const out = exporter(counted.doc)
    // The 12-way chain made twice as deep: following its paths would cost 12^30 times as much.
    const deeper = countedReads(hostileDocument(60), maxReads)
    exporter(deeper.doc)
    expect(deeper.reads()).toBeLessThan(counted.reads() * 1.1)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
    expect(foreignTemplates(out)).toEqual([])
    expect(JSON.stringify(out)).not.toContain('\r\nX-Injected')
    expect(JSON.stringify(out).length).toBeLessThan(2_000_000)
  })

  it.each([
    null,
    undefined,
    'openapi',
    42,
    [],
    {},
    { paths: [] },
    { paths: { '/x': { get: { parameters: {}, responses: 1 } } } },
  ])('gives an empty but valid export for %j', (doc) => {
    expect(() => JSON.stringify(exporter(doc))).not.toThrow()
  })
})

describe('hostile exports still import', () => {
  it('into postman-collection, insomnia-importers and @usebruno/schema', async () => {
    const collection = new postman.Collection(JSON.parse(JSON.stringify(toPostman(hostile))))
    const names: string[] = []
    collection.forEachItem((item) => {
      names.push(item.name)
    })
    expect(names.length).toBe(2)
    const insomnia = await convert(JSON.stringify(toInsomnia(hostile)))
    expect(insomnia.type.id).toBe('insomnia-4')
    await expect(
      collectionSchema.validate(JSON.parse(JSON.stringify(toBruno(hostile)))),
    ).resolves.toBeTruthy()
  })

  it('keep a JSON body that says what the schema says, with {{ written as \\u007b', () => {
    const item = toPostman(hostile).item.flatMap((i) => ('item' in i ? i.item : [i]))[0]!
    const raw = (item as unknown as { request: { body: { raw: string } } }).request.body.raw
    const body = JSON.parse(raw)
    expect(body.evil).toBe(evil)
    expect(Object.hasOwn(body, '__proto__')).toBe(true)
    expect(raw).toContain('\\u007b')
  })
})
