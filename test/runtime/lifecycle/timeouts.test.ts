import { EventEmitter } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Response } from 'express'
import { describe, expect, it } from 'vitest'
import { contextOf } from '../../../src/runtime/core/context.js'
import { deadlines, startDeadline } from '../../../src/runtime/lifecycle/timeouts.js'

// The deadline list: one timer per duration, a request's context its node, released when its
// response closes, and each expiry handed over in arrival order.

function response(name: string): Response {
  const res = new EventEmitter() as unknown as Response & { name: string }
  res.name = name
  contextOf(res)
  return res
}

const nameOf = (res: Response) => (res as unknown as { name: string }).name

describe('deadlines', () => {
  it('expires the requests whose responses have not closed, oldest first, once each', async () => {
    const expired: string[] = []
    const list = deadlines(30, (res) => expired.push(nameOf(res)))
    const [a, b, c] = ['a', 'b', 'c'].map(response) as [Response, Response, Response]
    for (const res of [a, b, c]) startDeadline(list, res)
    startDeadline(list, a) // timed once, however often it is started
    b.emit('close')
    await sleep(80)
    expect(expired).toEqual(['a', 'c'])
    expect(list.head).toBeUndefined()
    expect(contextOf(a).timedRes).toBeUndefined()
  })

  it('lets go of a response as soon as it closes: nothing is held until the deadline', () => {
    const list = deadlines(60_000, () => {})
    const all = Array.from({ length: 100 }, (_, i) => response(String(i)))
    for (const res of all) startDeadline(list, res)
    for (const res of all) res.emit('close')
    expect(list.head).toBeUndefined()
    expect(list.tail).toBeUndefined()
    expect(all.every((res) => contextOf(res).timedList === undefined)).toBe(true)
  })

  it('keeps the others of a list when one in the middle leaves', async () => {
    const expired: string[] = []
    const list = deadlines(20, (res) => expired.push(nameOf(res)))
    const all = ['a', 'b', 'c', 'd'].map(response)
    for (const res of all) startDeadline(list, res)
    all[1]!.emit('close')
    all[3]!.emit('close')
    await sleep(60)
    expect(expired).toEqual(['a', 'c'])
  })

  it('goes on with the list when one expiry throws', async () => {
    const expired: string[] = []
    const list = deadlines(20, (res) => {
      expired.push(nameOf(res))
      throw new Error('a broken socket')
    })
    for (const name of ['a', 'b']) startDeadline(list, response(name))
    await sleep(60)
    expect(expired).toEqual(['a', 'b'])
  })
})
