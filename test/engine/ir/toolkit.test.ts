import { describe, expect, it } from 'vitest'
import { type ItemBounds, narrowItems } from '../../../src/engine/ir/bounds.js'
import { staticDefault } from '../../../src/engine/ir/defaults.js'
import { readMeta, withMeta } from '../../../src/engine/ir/meta.js'
import { irNode } from '../../../src/engine/ir/nodes.js'
import { Recursion } from '../../../src/engine/ir/recursion.js'

describe('staticDefault', () => {
  it('documents JSON data, as a copy', () => {
    const value = { page: 1, tags: ['a'] }
    const doc = staticDefault(() => value)
    expect(doc).toEqual(value)
    expect(doc).not.toBe(value)
  })

  it('leaves out defaults made fresh per read, functions and values JSON cannot hold', () => {
    let n = 0
    expect(staticDefault(() => ++n)).toBeUndefined()
    expect(staticDefault(() => () => 1)).toBeUndefined()
    expect(staticDefault(() => 1n)).toBeUndefined()
    expect(staticDefault(() => undefined)).toBeUndefined()
    expect(
      staticDefault(() => {
        throw new Error('getter')
      }),
    ).toBeUndefined()
  })
})

describe('readMeta and withMeta', () => {
  it('keeps well-typed fields only', () => {
    expect(readMeta({ title: 'T', description: 3, examples: 'x', deprecated: 'yes' })).toEqual({
      title: 'T',
    })
    expect(readMeta({ examples: [1], deprecated: true })).toEqual({
      examples: [1],
      deprecated: true,
    })
    expect(readMeta({})).toBeUndefined()
  })

  it('lays the outer fields over the node’s own', () => {
    const inner = withMeta(irNode({ kind: 'boolean', coerce: false }), {
      title: 'in',
      description: 'd',
    })
    expect(withMeta(inner, { title: 'out' }).meta).toEqual({ title: 'out', description: 'd' })
    expect(withMeta(inner, undefined)).toBe(inner)
  })
})

describe('Recursion', () => {
  it('turns a schema met inside itself into a ref, and its outer node into a recursive one', () => {
    const rec = new Recursion<object>()
    const schema = {}
    const ir = rec.enter(schema, () =>
      irNode({ kind: 'array', item: rec.enter(schema, () => irNode({ kind: 'never' })) }),
    )
    expect(ir).toMatchObject({ kind: 'recursive', id: 'Schema1', node: { kind: 'array' } })
    expect(ir.kind === 'recursive' && ir.node.kind === 'array' && ir.node.item).toMatchObject({
      kind: 'ref',
      id: 'Schema1',
    })
  })

  it('leaves a schema used twice side by side, not inside itself, as two plain nodes', () => {
    const rec = new Recursion<object>()
    const shared = {}
    const leaf = () => rec.enter(shared, () => irNode({ kind: 'null' }))
    expect([leaf().kind, leaf().kind]).toEqual(['null', 'null'])
  })
})

describe('narrowItems', () => {
  it('keeps the largest minimum and the smallest maximum', () => {
    const len: ItemBounds = {}
    narrowItems(len, 2, undefined)
    narrowItems(len, 1, 5)
    narrowItems(len, undefined, 3)
    expect(len).toEqual({ minItems: 2, maxItems: 3 })
  })
})
