import { collectionSchema } from '@usebruno/schema'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toBruno, toInsomnia, toPostman } from '../../../src/openapi/index.js'
import { countedReads } from '../../support/counted-reads.js'
import { documentArb } from '../../support/document-arbitrary.js'
import { maxReads } from '../../support/hostile-document.js'

describe('the client exports on random documents', () => {
  it('never throw, read the document a bounded number of times, give JSON Bruno’s schema accepts', async () => {
    await fc.assert(
      fc.asyncProperty(documentArb, async (generated) => {
        // Through JSON, as a document arrives: `__proto__` keys become own keys.
        const doc = JSON.parse(JSON.stringify(generated))
        const outputs = [toPostman, toInsomnia, toBruno].map((exporter) => {
          const counted = countedReads(doc, maxReads)
          const out = exporter(counted.doc)
          expect(counted.reads()).toBeLessThanOrEqual(maxReads)
          return out
        })
        for (const out of outputs) expect(() => JSON.stringify(out)).not.toThrow()
        await collectionSchema.validate(JSON.parse(JSON.stringify(outputs[2])))
        expect(Object.prototype).not.toHaveProperty('polluted')
      }),
      { numRuns: 150 },
    )
  }, 120_000)
})
