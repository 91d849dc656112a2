import { describe, expectTypeOf, it } from 'vitest'
import type { IRKind, IRNode } from '../../../src/engine/ir/types.js'
import { each, kinds, type NodeOf, type Visitor, visit } from '../../../src/engine/ir/visit.js'

const every = kinds(
  'string number bigint boolean date literal enum null undefined nan unknown never array object record tuple set union intersection optional nullable readonly default pipe recursive ref native',
)
const allButNative = kinds(
  'string number bigint boolean date literal enum null undefined nan unknown never array object record tuple set union intersection optional nullable readonly default pipe recursive ref',
)
const yes = () => true

describe('Visitor', () => {
  it('has one required handler per IR kind, typed by its node', () => {
    expectTypeOf<keyof Visitor<unknown>>().toEqualTypeOf<IRKind>()
    expectTypeOf<Visitor<number, string>['optional']>().toEqualTypeOf<
      (node: NodeOf<'optional'>, ctx: string) => number
    >()
  })

  it('refuses a table that leaves a kind out: a kind added to the IR fails each table', () => {
    expectTypeOf<(typeof every)[number]>().toEqualTypeOf<IRKind>()
    expectTypeOf({ ...each(every, yes) }).toExtend<Visitor<boolean>>()
    expectTypeOf({ ...each(allButNative, yes) }).not.toExtend<Visitor<boolean>>()
    // @ts-expect-error: the table has no handler for `native`
    const partial: Visitor<boolean> = { ...each(allButNative, yes) }
    expectTypeOf(partial).toBeObject()
  })

  it('is what visit runs: a partial table is a type error', () => {
    const node = {} as IRNode
    expectTypeOf(visit(node, { ...each(every, yes) }, undefined)).toEqualTypeOf<boolean>()
    // @ts-expect-error: only `string` is handled
    visit(node, { string: yes }, undefined)
  })
})

describe('kinds', () => {
  it('types the kinds it lists, and refuses a word that is no kind', () => {
    expectTypeOf(kinds('string ref')).toEqualTypeOf<('string' | 'ref')[]>()
    // @ts-expect-error: `strng` is no kind
    kinds('strng ref')
    // @ts-expect-error: two spaces make an empty word
    kinds('string  ref')
  })
})
