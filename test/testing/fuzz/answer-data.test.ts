import { describe, expect, it } from 'vitest'
import { idOf } from '../../../src/testing/fuzz/stateful/answer-data.js'
import type { Resource } from '../../../src/testing/fuzz/stateful/links.js'

// The stateful phase reads a created resource's id from what the app answered: an app's header
// that is not valid percent-encoding must give an id as sent, never stop the run.

const envelope = { success: ['success'], data: ['data'], message: [], error: [] } as never
const resource = { name: '/todos', id: { kind: 'location' } } as unknown as Resource
const answer = (location: string) => ({ status: 201, headers: { location }, text: '{}' })

describe('idOf', () => {
  it('reads the id after the collection in Location, decoded', () => {
    expect(idOf(resource, answer('/todos/a%20b'), {}, envelope)).toBe('a b')
  })

  it('keeps a segment that is not valid percent-encoding as it was sent (it threw URIError)', () => {
    expect(idOf(resource, answer('/todos/100%'), {}, envelope)).toBe('100%')
    expect(idOf(resource, answer('/todos/%E0%A4%A'), {}, envelope)).toBe('%E0%A4%A')
  })

  it('keeps a link expression that is not valid percent-encoding as written', () => {
    const linked = { name: '/todos', id: { kind: 'link', expression: '$response.body#/x%' } }
    expect(idOf(linked as unknown as Resource, answer('/x'), { 'x%': 7 }, envelope)).toBe('7')
  })
})
