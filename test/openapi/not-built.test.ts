import { describe, expect, expectTypeOf, it } from 'vitest'
import * as subpath from '../../src/openapi/index.js'

// A plain object: the test looks names up dynamically, which a namespace import discourages.
const openapi: Record<string, (...args: unknown[]) => never> = { ...subpath }

// The subpath is not built yet: it exports every name it will have; each throws when called.
describe('shapeguard/openapi (not built yet)', () => {
  const names = [
    'generateOpenAPI',
    'createDocs',
    'serveScalar',
    'serveSwaggerUI',
    'serveRedoc',
    'serveDocs',
    'toPostman',
    'toInsomnia',
    'toBruno',
  ] as const

  it('is typed as never returning', () => {
    expectTypeOf(subpath.generateOpenAPI).returns.toBeNever()
    expectTypeOf(subpath.toBruno).returns.toBeNever()
  })

  it('shapeguard/openapi exports each name, which throws "not implemented yet"', () => {
    expect(Object.keys(openapi).sort()).toEqual([...names].sort())
    for (const name of names) {
      expect(() => openapi[name]?.({})).toThrow(
        `shapeguard/openapi: ${name}() is not implemented yet`,
      )
    }
  })
})
