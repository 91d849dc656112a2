import type { Response } from 'express'
import { contextOf, peekContext, type RequestContext } from '../core/context.js'

// Per-request deadlines without a timer per request: every request of one duration joins one
// list in arrival order, so the list is in deadline order too, and one timer, set for the list's
// first deadline, serves them all. The request's context is its own list node (no allocation);
// it leaves the list when its response closes (answered, or the client went). What expires is
// handed to `expire`. bench/timeouts.bench.ts measures it against a timer per request and
// `AbortSignal.timeout`.

/** The requests of one duration, oldest first. */
class Deadlines {
  head: RequestContext | undefined = undefined
  tail: RequestContext | undefined = undefined
  timer: NodeJS.Timeout | undefined = undefined
  /** When the timer fires (performance.now()), or Infinity without one. */
  due = Number.POSITIVE_INFINITY

  constructor(
    readonly ms: number,
    readonly expire: (res: Response) => void,
  ) {}

  add(context: RequestContext, res: Response, now: number): void {
    context.deadline = now + this.ms
    context.timedRes = res
    context.timedList = this
    context.timedPrev = this.tail
    context.timedNext = undefined
    if (this.tail === undefined) this.head = context
    else this.tail.timedNext = context
    this.tail = context
    // A list that already waits for an earlier deadline fires in time for this one too.
    if (this.timer === undefined) this.arm(now)
  }

  remove(context: RequestContext): void {
    const { timedPrev: prev, timedNext: next } = context
    if (prev === undefined) this.head = next
    else prev.timedNext = next
    if (next === undefined) this.tail = prev
    else next.timedPrev = prev
    context.timedPrev = undefined
    context.timedNext = undefined
    context.timedRes = undefined
    context.timedList = undefined
  }

  private arm(now: number): void {
    const head = this.head
    if (head === undefined) return
    this.due = head.deadline
    // Never below 1 ms: a deadline a timer rounds down would fire before it and re-arm at once.
    this.timer = setTimeout(fire, Math.max(1, Math.ceil(head.deadline - now)), this)
    this.timer.unref()
  }

  fire(): void {
    this.timer = undefined
    const now = performance.now()
    // Bounded by the list: each turn removes its head.
    for (let head = this.head; head !== undefined && head.deadline <= now; head = this.head) {
      const res = head.timedRes!
      this.remove(head)
      try {
        this.expire(res)
      } catch {
        // An answer that cannot be written (a broken socket) must not stop the other deadlines.
      }
    }
    this.arm(now)
  }
}

function fire(list: Deadlines): void {
  list.fire()
}

// One listener function for every response: nothing is made per request.
function onClose(this: Response): void {
  const context = peekContext(this)
  context?.timedList?.remove(context)
}

/** The deadlines of one duration and what happens when one passes; make one per duration and reuse it. */
export function deadlines(ms: number, expire: (res: Response) => void): Deadlines {
  return new Deadlines(ms, expire)
}

export type { Deadlines }

/** Times the request: `list.expire(res)` runs if its response has not closed within `list.ms`. */
export function startDeadline(list: Deadlines, res: Response): void {
  const context = contextOf(res)
  if (context.timedList !== undefined) return
  list.add(context, res, performance.now())
  res.on('close', onClose)
}
