import { EventEmitter } from 'node:events'
import type { Response } from 'express'
import { contextOf } from '../src/runtime/core/context.js'
import { deadlines, startDeadline } from '../src/runtime/lifecycle/timeouts.js'
import { compare, printComparison, writeResults } from './lib.js'

// Question: what does timing one request cost, three ways? Each case makes a response (an event
// emitter, as Node's ServerResponse is), times it for 30 s, then closes it, as an answered
// request does; the baseline only makes and closes it. The whole-server figure (a guarded route
// with and without `timeout`, by server CPU per request) is the `timed / guarded` row of
// bench/http.bench.ts; this one says why lifecycle/timeouts.ts is built as it is.
//   - 'deadline list': lifecycle/timeouts.ts, the request's context in one list per duration,
//     one timer for the list;
//   - 'timer per request': setTimeout, cleared when the response closes;
//   - 'AbortSignal.timeout': a signal per request, its listener removed when the response closes.

const ms = 30_000
const list = deadlines(ms, () => {})
const expire = () => {}

// Every guarded request has its context before it is timed.
function made(): Response {
  const res = new EventEmitter() as unknown as Response
  contextOf(res)
  return res
}

const c = await compare(
  'timing one request for 30 s, then answering it',
  'untimed',
  {
    untimed() {
      const res = made()
      res.emit('close')
    },
    'deadline list'() {
      const res = made()
      startDeadline(list, res)
      res.emit('close')
    },
    'timer per request'() {
      const res = made()
      const timer = setTimeout(expire, ms)
      timer.unref()
      res.once('close', () => clearTimeout(timer))
      res.emit('close')
    },
    'AbortSignal.timeout'() {
      const res = made()
      const signal = AbortSignal.timeout(ms)
      signal.addEventListener('abort', expire)
      res.once('close', () => signal.removeEventListener('abort', expire))
      res.emit('close')
    },
  },
  { rounds: 5 },
)
printComparison(c)
writeResults(`timeouts-node${process.versions.node.split('.')[0]}`, c)
