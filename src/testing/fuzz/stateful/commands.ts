import type { Arbitrary, AsyncCommand } from 'fast-check'
import type { EnvelopeNames } from '../../../shared/envelope-shape.js'
import { isObject } from '../../../shared/is-object.js'
import { fastCheck } from '../../load-fast-check.js'
import type { StatefulStep } from '../fuzz-report.js'
import type { FuzzRequest } from '../fuzz-request.js'
import { dataOf, idOf, listItems, sameJson } from './answer-data.js'
import type { ItemRoute, Resource } from './links.js'
import { filled, type Session, type StepRoute } from './session.js'

// The commands of a resource's sequences (fast-check's model-based testing): create, read, update,
// delete, a route nested under it, and a use of a deleted one. The model is what the sequence
// created: each live resource's id and the data last answered for it, and the deleted ones.

interface Held {
  readonly id: string
  /** The data its last create or update answered. */
  data: unknown
  /** The step that gave it (`POST /users answered 201`), for the failure's words. */
  by: string
}

/** A sequence's resources. */
export interface Model {
  readonly live: Held[]
  readonly gone: Held[]
}

/** What the commands of one resource share across its sequences. */
export interface ResourceRun {
  readonly resource: Resource
  readonly create: StepRoute
  readonly list: StepRoute | undefined
  readonly steps: ReadonlyMap<ItemRoute, StepRoute>
  readonly envelope: EnvelopeNames
  /** The highest numeric id a create gave: a failed create must not have taken the next one. */
  lastNumeric: number | undefined
  /** The create that gave it: a replay sends it first when a sequence's check counted on it. */
  lastCreate: FuzzRequest | undefined
  /** A create answered 2xx with no id it could read. */
  noId: boolean
  /** A create failed where nothing could tell whether it stored (no list, ids not numbers). */
  unchecked: boolean
}

/** A command of a sequence: fast-check's, on the model and a session. */
export type Command = AsyncCommand<Model, Session, boolean>

const ok = (status: number) => status >= 200 && status < 300
const missing = (status: number) => status === 404 || status === 410
const answered = (key: string, status: number) => `${key} answered ${status}`

// The ids (else the count) of a list's items; undefined when the answer is not a list.
async function listed(r: ResourceRun, s: Session, req: FuzzRequest) {
  const { answer, body } = await s.step(r.list!, req)
  const items = ok(answer.status) ? listItems(dataOf(body, r.envelope)) : undefined
  if (items === undefined) return undefined
  const field = r.resource.id.kind === 'field' ? r.resource.id.field : 'id'
  const ids = items.map((i) => (isObject(i) ? i[field] : undefined))
  return {
    ids: ids.every((x) => x !== undefined) ? new Set(ids.map(String)) : undefined,
    count: items.length,
  }
}

// Without a list: whether the id after the last one created reads (a success) now; undefined
// when it cannot be asked (no numeric id yet, no read route, no valid read request).
async function nextReads(r: ResourceRun, s: Session): Promise<boolean | undefined> {
  const read = [...r.steps].find(([i]) => i.role === 'read')
  const req = read?.[1].valid && fastCheck().sample(read[1].valid, { numRuns: 1, seed: 1 })[0]
  if (r.lastNumeric === undefined || read === undefined || req === undefined) return undefined
  const next = String(r.lastNumeric + 1)
  const { answer } = await s.step(read[1], filled(req, read[0].segment, next))
  return ok(answer.status)
}

// After a create answered 4xx: the list grew by nothing; without a list, the id after the last
// one created, which did not read before the create, does not read after it either.
async function leftBehind(
  r: ResourceRun,
  s: Session,
  by: string,
  listReq: FuzzRequest | undefined,
  before: { list?: Awaited<ReturnType<typeof listed>>; next?: boolean | undefined },
) {
  if (r.list !== undefined && listReq !== undefined && before.list !== undefined) {
    const after = await listed(r, s, listReq)
    if (after === undefined) return
    const grew =
      before.list.ids !== undefined && after.ids !== undefined
        ? [...after.ids].some((id) => !before.list!.ids!.has(id))
        : after.count > before.list.count
    if (grew) s.fail(`failed_create_stored: ${r.list.key} lists a new resource after ${by}`)
    return
  }
  // An app that reads any id (a stub, a lookup that answers defaults) tells nothing.
  if (before.next !== false) {
    r.unchecked = true
    return
  }
  if ((await nextReads(r, s)) === true)
    s.fail(
      `failed_create_stored: the id after the last one created reads after ${by}, and did not before it`,
    )
}

// A create's numeric id: the highest is the last one created, which a failed create must not take.
function numbered(r: ResourceRun, s: Session, id: string, req: FuzzRequest) {
  if (!/^\d{1,15}$/.test(id)) return
  if (r.lastNumeric === undefined || Number(id) >= r.lastNumeric) {
    r.lastNumeric = Number(id)
    r.lastCreate = req
    // Only then is the last create this sequence's: a lower id (an app that reuses ids) leaves
    // an earlier sequence's create, which a replay must send first.
    s.numbered = true
  }
}

// A replay's first step when the sequence counted on an id an earlier sequence created: that
// create, sent again for the id it gives now, outside the model.
function prior(r: ResourceRun, req: FuzzRequest): Command {
  return {
    check: () => true,
    async run(_m, s) {
      s.begin({ command: 'prior', route: r.create.key, request: req })
      const { answer, body } = await s.step(r.create, req)
      const id = ok(answer.status) ? idOf(r.resource, answer, body, r.envelope) : undefined
      if (id !== undefined) numbered(r, s, id, req)
    },
    toString: () => `${r.create.key} (the last create before the sequence)`,
  }
}

function create(r: ResourceRun, req: FuzzRequest, listReq: FuzzRequest | undefined): Command {
  return {
    check: () => true,
    async run(m, s) {
      s.begin({
        command: 'create',
        route: r.create.key,
        request: req,
        ...(listReq !== undefined && r.list !== undefined && { list: listReq }),
      })
      // What a failed create must leave as it was: the list, else whether the next id reads.
      const listing = listReq !== undefined && r.list !== undefined
      if (!listing && !s.numbered && r.lastCreate !== undefined)
        s.prior({ command: 'prior', route: r.create.key, request: r.lastCreate })
      const before = listing
        ? { list: await listed(r, s, listReq) }
        : { next: await nextReads(r, s) }
      const { answer, body } = await s.step(r.create, req)
      const by = answered(r.create.key, answer.status)
      if (answer.status >= 400 && answer.status < 500) {
        await leftBehind(r, s, by, listReq, before)
        return
      }
      if (!ok(answer.status)) return
      const id = idOf(r.resource, answer, body, r.envelope)
      if (id === undefined) {
        r.noId = true
        return
      }
      numbered(r, s, id, req)
      m.live.push({ id, data: dataOf(body, r.envelope), by })
    },
    toString: () => `${r.create.key}${req.kind === 'valid' ? '' : ` (${req.kind})`}`,
  }
}

// A step on a live resource: read, update, delete or nested.
function onLive(r: ResourceRun, item: ItemRoute, req: FuzzRequest, pick: number): Command {
  const step = r.steps.get(item)!
  return {
    check: (m) => m.live.length > 0,
    async run(m, s) {
      s.begin({ command: 'live', route: step.key, request: req, pick })
      const at = pick % m.live.length
      const held = m.live[at]!
      const { answer, body } = await s.step(step, filled(req, item.segment, held.id))
      const done = answered(step.key, answer.status)
      if (missing(answer.status) && item.role !== 'nested')
        s.fail(`resource_unavailable: ${done} after ${held.by}`)
      if (!ok(answer.status)) return
      const data = dataOf(body, r.envelope)
      if (item.role === 'read' && isObject(data) && isObject(held.data)) {
        const was = held.data
        const differs = Object.keys(data).filter(
          (k) => Object.hasOwn(was, k) && !sameJson(data[k], was[k]),
        )
        if (differs.length > 0)
          s.fail(`resource_mismatch: ${done} with ${differs.join(', ')} unlike what ${held.by}`)
      }
      if (item.role === 'update') {
        held.data = isObject(data) && isObject(held.data) ? { ...held.data, ...data } : data
        held.by = done
      }
      if (item.role === 'delete') {
        m.live.splice(at, 1)
        m.gone.push({ ...held, by: done })
      }
    },
    toString: () => `${step.key} (#${pick})`,
  }
}

function onGone(r: ResourceRun, item: ItemRoute, req: FuzzRequest, pick: number): Command {
  const step = r.steps.get(item)!
  return {
    check: (m) => m.gone.length > 0,
    async run(m, s) {
      s.begin({ command: 'gone', route: step.key, request: req, pick })
      const held = m.gone[pick % m.gone.length]!
      const { answer } = await s.step(step, filled(req, item.segment, held.id))
      // DELETE is idempotent (RFC 9110): deleting again may succeed without a resource to read.
      if (answer.status < 400 && item.role !== 'delete')
        s.fail(`use_after_free: ${answered(step.key, answer.status)} after ${held.by}`)
    },
    toString: () => `${step.key} after delete (#${pick})`,
  }
}

/** The command a saved step was, to run again (a replay); undefined when the route is not the resource's now. */
export function commandOf(r: ResourceRun, step: StatefulStep): Command | undefined {
  if (step.command === 'create' || step.command === 'prior') {
    if (step.route !== r.create.key) return undefined
    return step.command === 'prior' ? prior(r, step.request) : create(r, step.request, step.list)
  }
  const item = [...r.steps].find(([, s]) => s.key === step.route)?.[0]
  if (item === undefined) return undefined
  const use = step.command === 'live' ? onLive : onGone
  return use(r, item, step.request, step.pick ?? 0)
}

/** The arbitraries of a resource's commands. */
export function commandsOf(r: ResourceRun): Arbitrary<Command>[] {
  const fc = fastCheck()
  // Mostly valid creates: each sequence needs resources to read, update and delete.
  const creates = [{ arbitrary: r.create.valid!, weight: 3 }]
  if (r.create.invalid !== undefined) creates.push({ arbitrary: r.create.invalid, weight: 1 })
  const listReq = r.list?.valid ?? fc.constant(undefined)
  const creating = fc.tuple(fc.oneof(...creates), listReq).map(([req, l]) => create(r, req, l))
  const out: Arbitrary<Command>[] = []
  const deletes = [...r.steps].some(([i]) => i.role === 'delete')
  for (const [item, step] of r.steps) {
    if (step.valid === undefined) continue
    const pair = fc.tuple(step.valid, fc.nat(7))
    out.push(pair.map(([req, pick]) => onLive(r, item, req, pick)))
    if (deletes && item.role !== 'nested')
      out.push(pair.map(([req, pick]) => onGone(r, item, req, pick)))
  }
  // A command is picked evenly among these: creates are about a third of each sequence.
  return [...Array.from({ length: Math.ceil(out.length / 2) || 1 }, () => creating), ...out]
}
