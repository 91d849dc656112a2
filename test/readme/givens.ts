import express, { type RequestHandler, type Response } from 'express'
import * as z from 'zod'
import { shapeguard } from '../../src/index.js'

// What README blocks marked `<!-- readme: given … -->` use without defining: the app and the
// application code around an example. Real values, so that a block that runs gets real behaviour.

/** The app of the README's "Responses" section: shapeguard() first, then the JSON parser. */
export const app = express()
app.use(shapeguard())
app.use(express.json())

/** Any handler of the application's own. */
export const handler: RequestHandler = (req, res) => res.ok({ data: req.body ?? null })
export const listUsers = handler
export const getUser = handler
export const deleteUser = handler
export const createUser = handler

const orders = new Map([['1', { id: '1', total: 42 }]])
/** The application's database. */
export const db = {
  orders: { find: async (id: string) => orders.get(id) },
}

let lastId = 0
/** The application's user store. */
export const users = {
  add: async (org: string, input: { name: string; email: string }) => {
    lastId += 1
    return { id: lastId, org, ...input }
  },
}

export const ImportSchema = z.object({ rows: z.array(z.object({ sku: z.string() })) })
export const importRows = (req: { body: z.infer<typeof ImportSchema> }, res: Response) =>
  res.created({ data: { imported: req.body.rows.length } })

const sessionTable = new Map([['sid=s1', { userId: 'u1' }]])
/** The application's session store. */
export const sessions = {
  find: async (cookie: string | undefined) =>
    cookie === undefined ? undefined : sessionTable.get(cookie),
}
