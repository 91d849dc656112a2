import { describe, expect, it } from 'vitest'
import { unionOf } from '../../../src/engine/json-schema/json-schema-union.js'

const branch = (kind: string) => ({
  type: 'object',
  properties: { kind: { const: kind }, v: { type: 'number' } },
  required: ['kind', 'v'],
})

describe('unionOf', () => {
  it('writes oneOf for a discriminated union whose every option pins the discriminator', () => {
    expect(unionOf([branch('a'), branch('b')], 'kind')).toEqual({
      oneOf: [branch('a'), branch('b')],
    })
  })

  it('writes anyOf when an option is written wider, so one value cannot match two options', () => {
    // A branch only the library can check is written as any value: with oneOf, every value of
    // the first branch would match both and be refused.
    expect(unionOf([branch('a'), {}], 'kind')).toEqual({ anyOf: [branch('a'), {}] })
    const optional = { ...branch('b'), required: ['v'] }
    expect(unionOf([branch('a'), optional], 'kind')).toEqual({ anyOf: [branch('a'), optional] })
  })

  it('writes anyOf for a plain union: the library takes the first option that matches', () => {
    expect(unionOf([branch('a'), branch('b')], undefined)).toEqual({
      anyOf: [branch('a'), branch('b')],
    })
  })
})
