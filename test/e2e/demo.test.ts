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

describe('the demo user store', () => {
  it('never reuses an id: a POST after a DELETE creates a new user and keeps the others', async () => {
    const app = createApp()
    const deleted = await request(app).delete('/users/2').set('x-role', 'admin')
    expect(deleted.status).toBe(204)
    const created = await request(app)
      .post('/users')
      .send({ name: 'Edsger Dijkstra', email: 'edsger@example.com' })
    expect(created.status).toBe(201)
    expect(created.body.data.id).toBe(4)
    const third = await request(app).get('/users/3')
    expect(third.body.data).toEqual({ id: 3, name: 'Grace Hopper', email: 'grace@example.com' })
  })
})
