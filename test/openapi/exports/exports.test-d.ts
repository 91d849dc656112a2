import { describe, expectTypeOf, it } from 'vitest'
import {
  type BrunoCollection,
  type ClientExportOptions,
  type InsomniaExport,
  type PostmanCollection,
  toBruno,
  toInsomnia,
  toPostman,
} from '../../../src/openapi/index.js'

describe('client export types', () => {
  it('take any document and the shared options, and return each format', () => {
    expectTypeOf(toPostman).parameters.toEqualTypeOf<[unknown, ClientExportOptions?]>()
    expectTypeOf(toPostman({})).toEqualTypeOf<PostmanCollection>()
    expectTypeOf(toInsomnia({})).toEqualTypeOf<InsomniaExport>()
    expectTypeOf(toBruno({})).toEqualTypeOf<BrunoCollection>()
    expectTypeOf<ClientExportOptions>().toEqualTypeOf<{
      readonly seed?: string
      readonly name?: string
      readonly baseUrl?: string
    }>()
    expectTypeOf(toInsomnia({}).__export_format).toEqualTypeOf<4>()
  })

  it('reject options they do not know', () => {
    // @ts-expect-error: no such option
    toPostman({}, { sed: 'typo' })
  })
})
