/**
 * Whether a body parser read the request's body: `true` when one did, `false` when the request is
 * a stream nothing has read to its end, `undefined` when it is not a stream (a request double).
 *
 * Every parser reads the stream to its end before the route runs, so Node's public
 * `readableEnded` answers for any real request, Express 4 (body-parser 1) and 5 (body-parser 2)
 * alike. body-parser 1 also marks a request it reads with `_body = true`, a private detail read
 * here only (test/runtime/host/body-read.test.ts pins both to the versions CI runs), and only
 * after the stream: Express 5's requests have no `_body`, and a property nothing in a request's
 * long prototype chain holds is a slow miss.
 */
export function bodyRead(req: object): boolean | undefined {
  const ended = (req as { readableEnded?: unknown }).readableEnded
  if (ended === true) return true
  if ((req as { _body?: unknown })._body === true) return true
  return ended === false ? false : undefined
}
