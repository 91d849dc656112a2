import { describe, expect, it } from 'vitest'
import { isObject, isPlainObject } from '../../src/shared/is-object.js'

class Point {
  x = 1
}

describe('isObject and isPlainObject', () => {
  it('isObject takes any non-null object but an array', () => {
    for (const yes of [{}, Object.create(null), new Point(), new Date(), new Map()])
      expect(isObject(yes)).toBe(true)
    for (const no of [null, undefined, [], 'a', 1, () => {}]) expect(isObject(no)).toBe(false)
  })

  it('isPlainObject takes only an object whose prototype is Object.prototype or null', () => {
    for (const yes of [{}, { a: 1 }, Object.create(null), JSON.parse('{"__proto__":{}}')])
      expect(isPlainObject(yes)).toBe(true)
    for (const no of [null, [], new Point(), new Date(), new Map(), Object.create({}), 'a'])
      expect(isPlainObject(no)).toBe(false)
  })
})
