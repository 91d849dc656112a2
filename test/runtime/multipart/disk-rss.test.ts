import { expect, it } from 'vitest'
import { measureUpload } from '../../../bench/upload-rss.js'

// bench/upload-rss.ts measures a 1 GB upload; here a few hundred MB: without backpressure from
// the temporary file to the socket, RSS would grow by most of the upload.
it('keeps RSS flat while a 300 MB upload streams to a disk field', async () => {
  const bytes = 300 * 1024 * 1024
  const { growth, status } = await measureUpload(bytes)
  expect(status).toBe(201)
  expect(growth).toBeLessThan(110 * 1024 * 1024)
}, 120_000)
