import { describe, expect, it } from 'vitest'
import { defaultMaxBytes, file, isFileField } from '../../src/shared/file-field.js'
import { misuse } from '../support/misuse.js'

describe('file() and file.many()', () => {
  it('resolve every option, frozen, with the defaults', () => {
    const one = file()
    expect(one).toMatchObject({
      many: false,
      optional: false,
      storage: 'memory',
      types: undefined,
      maxBytes: defaultMaxBytes,
      min: 1,
      max: 1,
      description: undefined,
    })
    expect(Object.isFrozen(one)).toBe(true)
    expect(isFileField(one)).toBe(true)
    const many = file.many({ types: ['IMAGE/PNG', 'image/*'], optional: true, storage: 'disk' })
    expect(many).toMatchObject({ many: true, optional: true, storage: 'disk', min: 0, max: 10 })
    expect(many.types).toEqual(['image/png', 'image/*'])
    expect(file.many({ min: 2, max: 3 })).toMatchObject({ min: 2, max: 3, optional: false })
    expect(file({ optional: true })).toMatchObject({ min: 0, max: 1, optional: true })
  })

  it('are told from look-alikes', () => {
    expect(isFileField({ many: false, maxBytes: 1 })).toBe(false)
    expect(isFileField(null)).toBe(false)
  })

  it('refuse a bad option at definition, naming it', () => {
    expect(() => file({ maxbytes: 1 } as never)).toThrow(
      misuse(
        'SG_ERR_UNKNOWN_OPTION',
        'shapeguard: file(): maxbytes is not an option (types, maxBytes, optional, storage, description)',
      ),
    )
    expect(() => file({ max: 2 } as never)).toThrow(/max is not an option/)
    expect(() => file({ maxBytes: 0 })).toThrow(
      misuse(
        'SG_ERR_INVALID_OPTION',
        'shapeguard: file(): maxBytes: must be an integer of at least 1',
      ),
    )
    expect(() => file({ types: [] })).toThrow(/types must be a non-empty array/)
    expect(() => file({ types: ['png'] })).toThrow(
      misuse(
        'SG_ERR_INVALID_OPTION',
        "shapeguard: file(): types[0] must be a media type, e.g. 'image/png' or 'image/*'",
      ),
    )
    expect(() => file({ storage: 's3' as never })).toThrow(/storage must be 'memory' or 'disk'/)
    expect(() => file.many({ min: 3, max: 2 })).toThrow(
      misuse('SG_ERR_INVALID_OPTION', 'shapeguard: file.many(): min must be at most max'),
    )
    expect(() => file.many({ optional: true, min: 2 })).toThrow(
      misuse(
        'SG_ERR_OPTION_CONFLICT',
        'shapeguard: file.many(): optional and min 2 cannot go together, give one of them',
      ),
    )
    expect(() => file('image/png' as never)).toThrow(/file\(\): options must be an object/)
  })
})
