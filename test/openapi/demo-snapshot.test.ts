import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, it } from 'vitest'
import { demoDocument, demoTypes, documentText } from '../support/demo-document.js'

const snapshot = join(import.meta.dirname, '../../examples/demo/openapi.snapshot.json')
const types = join(import.meta.dirname, 'fixtures/demo-paths.ts')
const update = process.env.UPDATE_SNAPSHOTS === '1'

// The demo's document is reviewed by eye in the repository: any change to it shows in the diff.
describe('the demo OpenAPI document', () => {
  it('matches the snapshot kept in the repository', () => {
    const text = documentText(demoDocument())
    if (update) writeFileSync(snapshot, text)
    expect(text).toBe(readFileSync(snapshot, 'utf8'))
  })

  it('is valid OpenAPI 3.1', async () => {
    expect(await new Validator().validate(demoDocument() as never)).toEqual({ valid: true })
  })

  it('gives the openapi-typescript types kept for the typed-client test', async () => {
    const text = await demoTypes()
    if (update) writeFileSync(types, text)
    expect(text).toBe(readFileSync(types, 'utf8'))
  })
})
