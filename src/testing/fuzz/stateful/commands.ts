import type { Arbitrary, AsyncCommand } from 'fast-check'
import type { EnvelopeNames } from '../../../shared/envelope-shape.js'
import { isObject } from '../../../shared/is-object.js'
import { fastCheck } from '../../load-fast-check.js'
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
  /** A create answered 2xx with no id it could read. */
  noId: boolean
  /** A create failed where nothing could tell whether it stored (no list, ids not numbers). */
  unchecked: boolean
}

type Command = AsyncCommand<Model, Session, boolean>

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

function create(r: ResourceRun, req: FuzzRequest, listReq: FuzzRequest | undefined): Command {
  return {
    check: () => true,
    async run(m, s) {
      // What a failed create must leave as it was: the list, else whether the next id reads.
      const before =
        listReq !== undefined && r.list !== undefined
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
      if (/^\d{1,15}$/.test(id)) r.lastNumeric = Math.max(r.lastNumeric ?? 0, Number(id))
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
      const held = m.gone[pick % m.gone.length]!
      const { answer } = await s.step(step, filled(req, item.segment, held.id))
      // DELETE is idempotent (RFC 9110): deleting again may succeed without a resource to read.
      if (answer.status < 400 && item.role !== 'delete')
        s.fail(`use_after_free: ${answered(step.key, answer.status)} after ${held.by}`)
    },
    toString: () => `${step.key} after delete (#${pick})`,
  }
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
