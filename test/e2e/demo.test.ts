import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp, demoUrls } from '../../examples/demo/app.js'

describe('the demo API', () => {
  const app = createApp()

  it.each(demoUrls)('answers %s', async (url) => {
    const res = await request(app).get(url)
    expect(res.status).toBeLessThan(400)
  })
})
