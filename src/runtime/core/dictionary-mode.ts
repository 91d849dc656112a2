import type { Request, Response } from 'express'

// The one switch shapeguard makes to V8's object model, in plain sight: `useDictionaryMode`, the
// first step of shapeguard() (or of the first guarded route when the app has no shapeguard()).
// Nothing else changes an object's mode; creating the request context does not.

/**
 * Whether shapeguard puts each request and its response in V8's dictionary mode, chosen once,
 * when this module loads, per V8 version:
 *
 * - V8 12 and before (Node 22): Express's `Object.setPrototypeOf` on every request and response
 *   leaves each property added afterwards (`res.locals`, `req.params`, ...) a hidden class of its
 *   own, so every later read misses V8's caches, and reads in dictionary mode are cheaper
 *   (bench/results/property-reads-node22.json). The switch makes a guarded route cheaper than a
 *   bare Express one.
 * - V8 13 and later (Node 24, 26): such objects share one hidden class again, and dictionary mode
 *   would make reads dearer (bench/results/property-reads-node24.json, -node26.json): the switch
 *   stays off.
 *
 * `SHAPEGUARD_DICTIONARY_MODE=1` or `=0` in the environment overrides the choice (to measure
 * both paths on one line, or to turn the switch off).
 */
export const dictionaryMode: boolean = chooseDictionaryMode(
  process.versions.v8,
  process.env.SHAPEGUARD_DICTIONARY_MODE,
)

/** The choice for a V8 version (`process.versions.v8`) and the environment's override. */
export function chooseDictionaryMode(
  v8: string | undefined,
  override: string | undefined,
): boolean {
  if (override === '1') return true
  if (override === '0') return false
  const major = Number.parseInt(v8 ?? '', 10)
  return Number.isInteger(major) && major < 13
}

/**
 * Puts an Express request or response in V8's dictionary mode by deleting one of its own
 * properties and defining it again, as it was (same value and attributes; only its place in the
 * key order moves).
 *
 * Why (V8 12 and before, Node 22; `dictionaryMode` says where it runs): Express sets the
 * prototype of every request and response to its app's `app.request` and `app.response`
 * (`Object.setPrototypeOf`). After that, V8 gives the object a hidden class of its own, shared
 * with no other object, for each property added to it (`res.locals`, `req.params`, `req.body`,
 * ...), so every later property read on it, by Node's http code, Express, body-parser or
 * shapeguard, misses V8's inline caches and takes a slow lookup, dearer than a read in dictionary
 * mode or with a shared hidden class (bench/property-reads.bench.ts).
 * In dictionary mode a read is a hash lookup and an added property a cheap insert.
 * Deleting a property that is not the last one added switches an object to dictionary mode
 * (`req.res` and `res.req` are set before Express adds others; after its prototype change,
 * deleting the last one added does too). Over HTTP on Node 22 the guarded route then takes less
 * server CPU per request than the bare Express route (bench/http.bench.ts, its recorded run in
 * bench/results/http-node22.json). A property that cannot be deleted, or an object that cannot
 * take it back, leaves `o` as it is.
 */
export function toDictionaryMode(o: object, key: string): void {
  const descriptor = Object.getOwnPropertyDescriptor(o, key)
  if (descriptor === undefined || !descriptor.configurable || !Object.isExtensible(o)) return
  if (Reflect.deleteProperty(o, key)) Object.defineProperty(o, key, descriptor)
}

/** Switches a request and its response, through the two links Express sets first. */
function switchToDictionaryMode(req: Request, res: Response): void {
  toDictionaryMode(req, 'res')
  toDictionaryMode(res, 'req')
}

function keepMode(): void {}

/** The step for a choice: the switch, or a no-op where the switch stays off. */
export function dictionaryModeStep(on: boolean): (req: Request, res: Response) => void {
  return on ? switchToDictionaryMode : keepMode
}

/**
 * Puts a request and its response in dictionary mode where this V8 line gains from it
 * (`dictionaryMode`), else does nothing; run once per request, before shapeguard adds anything
 * to either (`req.id`, the request context).
 */
export const useDictionaryMode: (req: Request, res: Response) => void =
  dictionaryModeStep(dictionaryMode)
