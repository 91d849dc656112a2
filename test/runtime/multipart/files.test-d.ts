import { describe, expectTypeOf, it } from 'vitest'
import * as z from 'zod'
import { file, handle } from '../../../src/index.js'

describe('req.files in a handle() handler', () => {
  it('types each field from its file(): buffer in memory, path on disk, arrays, optional', () => {
    handle(
      {
        files: {
          avatar: file({ types: ['image/png'] }),
          scan: file({ storage: 'disk' }),
          photos: file.many({ max: 3 }),
          extra: file({ optional: true }),
          more: file.many({ optional: true }),
        },
        body: z.object({ title: z.string() }),
      },
      (req, res) => {
        expectTypeOf(req.files.avatar.buffer).toEqualTypeOf<Buffer>()
        expectTypeOf(req.files.avatar.name).toEqualTypeOf<string>()
        expectTypeOf(req.files.scan.path).toEqualTypeOf<string>()
        // @ts-expect-error a disk file has a path, no buffer
        req.files.scan.buffer
        expectTypeOf(req.files.photos[0]!.buffer).toEqualTypeOf<Buffer>()
        expectTypeOf(req.files.extra?.size).toEqualTypeOf<number | undefined>()
        // An optional many field is still an array, [] when no file came.
        expectTypeOf(req.files.more.length).toEqualTypeOf<number>()
        expectTypeOf(req.body.title).toEqualTypeOf<string>()
        res.ok({ data: null })
      },
    )
  })
})
