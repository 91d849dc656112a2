import { createHmac, createSecretKey } from 'node:crypto'
import type { Request } from 'express'
import { describe, expect, it } from 'vitest'
import { svixScheme } from '../../../src/runtime/webhooks/svix.js'

const key = Buffer.from('svix unit secret')
const body = Buffer.from('{"type":"invoice.paid"}')
const id = 'msg_1'
const ts = String(Math.floor(Date.now() / 1000))
const sig = createHmac('sha256', key).update(`${id}.${ts}.`).update(body).digest('base64')
const verify = svixScheme('svix', [createSecretKey(key)], 300)

function reason(signature: string): string | undefined {
  const headers = { 'svix-id': id, 'svix-timestamp': ts, 'svix-signature': signature }
  return verify({ headers } as unknown as Request, body)?.reason
}

describe('svixScheme reads the signature header', () => {
  it.each([
    ['one v1', `v1,${sig}`],
    ['the genuine one first', `v1,${sig} v1,Zm9yZ2Vk`],
    ['the genuine one last', `v1,Zm9yZ2Vk v1,${sig}`],
    ['after another version', `v1a,ed25519 v1,${sig}`],
  ])('passes %s', (_, header) => {
    expect(reason(header)).toBeUndefined()
  })

  it.each([
    ['an empty v1', 'v1,'],
    ['a second comma in the one item', `v1,${sig},${sig}`],
    ['a longer signature', `v1,${sig}x`],
    ['another version only', `v2,${sig}`],
    ['an uppercase version', `V1,${sig}`],
    // U+013D is written by latin1 as its low byte, '=' (0x3D): a SHA-256 digest's base64 ends
    // with one '='.
    ['a character folding onto the signature', `v1,${sig.slice(0, -1)}\u013d`],
  ])('refuses %s as a mismatch', (_, header) => {
    expect(reason(header)).toBe('signature-mismatch')
  })

  it.each([
    ['no comma', 'v1'],
    ['no version', `,${sig}`],
    ['a trailing space', `v1,${sig} `],
    ['two spaces', `v1,${sig}  v1,Zm9yZ2Vk`],
    ['an item without a comma', `v1,${sig} v1`],
  ])('refuses %s as malformed', (_, header) => {
    expect(reason(header)).toBe('malformed-header')
  })
})
