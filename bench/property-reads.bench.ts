import { IncomingMessage, ServerResponse } from 'node:http'
import express from 'express'
import { toDictionaryMode } from '../src/runtime/core/dictionary-mode.js'
import { compare, printComparison, writeResults } from './lib.js'

// Question: what do ten property reads on an Express response cost, in each of V8's object modes?
// Each case reads the same ten properties (own ones, Express's, Node's, methods on the prototype
// chain) from the next of 10,000 responses, made as Express makes them: a Node response whose
// prototype is then set to the app's `app.response`, with `req`/`res` linked first.
//   - 'shared hidden class': nothing added after the prototype change (no app does this: Express
//     itself adds `res.locals`);
//   - 'Express as is': `res.locals` added after the prototype change, as Express does, which gives
//     every response a hidden class of its own (V8's caches miss on every new response);
//   - 'dictionary mode': the same, then the switch shapeguard applies on Node 22
//     (`toDictionaryMode` in src/runtime/core/dictionary-mode.ts, which says where it runs).

const app = express()
const COUNT = 10_000

type Mode = 'shared' | 'express' | 'dictionary'

function responses(mode: Mode): ServerResponse[] {
  return Array.from({ length: COUNT }, () => {
    const req = new IncomingMessage(null as never)
    const res = new ServerResponse(req)
    ;(req as unknown as { res: unknown }).res = res
    Object.setPrototypeOf(req, app.request)
    Object.setPrototypeOf(res, app.response)
    if (mode !== 'shared') (res as unknown as { locals: unknown }).locals = Object.create(null)
    if (mode === 'dictionary') {
      toDictionaryMode(req, 'res')
      toDictionaryMode(res, 'req')
    }
    return res
  })
}

function reader(pool: ServerResponse[]): () => number {
  let i = 0
  return () => {
    const res = pool[i++ % COUNT] as unknown as Record<string, unknown>
    let n = 0
    if (res.statusCode === 200) n++
    if (res.req !== undefined) n++
    if (res.locals !== undefined) n++
    if (res.finished === false) n++
    if (res.sendDate === true) n++
    if (res.writableEnded === false) n++
    if (typeof res.getHeader === 'function') n++
    if (typeof res.setHeader === 'function') n++
    if (typeof res.json === 'function') n++
    if (res.app !== undefined) n++
    return n
  }
}

const c = await compare('ten property reads on an Express response', 'Express as is', {
  'shared hidden class': reader(responses('shared')),
  'Express as is': reader(responses('express')),
  'dictionary mode': reader(responses('dictionary')),
})
printComparison(c)
// One file per Node line: the modes behave differently on V8 12 and V8 13+ (dictionary-mode.ts).
writeResults(`property-reads-node${process.versions.node.split('.')[0]}`, c)
