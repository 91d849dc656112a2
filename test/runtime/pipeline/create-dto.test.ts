import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { createDTO } from '../../../src/index.js'

describe('createDTO', () => {
  it('returns the zod object schema itself, still a working schema', () => {
    const schema = z.object({ name: z.string() })
    const dto = createDTO(schema)
    expect(dto).toBe(schema)
    expect(dto.parse({ name: 'a', x: 1 })).toEqual({ name: 'a' })
  })

  it('rejects anything but a zod object schema with a clear message', () => {
    expect(() => createDTO(z.string() as never)).toThrow(/received a zod string schema/)
    expect(() => createDTO(v.object({}) as never)).toThrow(
      /a valibot schema \(createDTO is for zod/,
    )
    expect(() => createDTO(type({ a: 'string' }) as never)).toThrow(/arktype schema/)
    expect(() => createDTO({} as never)).toThrow(/takes a zod object schema/)
    expect(() => createDTO(null as never)).toThrow(/received null/)
  })
})
