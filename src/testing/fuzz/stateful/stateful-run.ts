import type { DiscoveredRoute } from '../../../runtime/pipeline/discover-routes.js'
import { fastCheck } from '../../load-fast-check.js'
import type { FuzzedRoute, FuzzFailure } from '../fuzz-report.js'
import type { Run } from '../fuzz-route.js'
import { commandsOf, type Model, type ResourceRun } from './commands.js'
import { findResources, type IdSource, type Resource } from './links.js'
import { SequenceBroken, Session, type StepRoute, stepRoute, type Tally } from './session.js'

/** What the stateful phase gave: its requests (as a route of the report) and the failures found. */
export interface StatefulRun {
  readonly route: FuzzedRoute | undefined
  readonly failures: readonly FuzzFailure[]
  /** Why nothing was sequenced, for the report's `skipped`: routes with a parameter and no create to feed them. */
  readonly skipped: readonly string[]
}

// Commands a sequence holds at most: create, read, update, delete and uses after it fit often.
const MAX_COMMANDS = 12

const idWords = (id: IdSource) =>
  id.kind === 'field'
    ? `the field ${id.field} of its answer, else its Location header`
    : id.kind === 'link'
      ? `the OpenAPI link ${id.name} (${id.expression})`
      : 'its Location header'

function described(r: Resource, steps: ReadonlyMap<unknown, StepRoute>): string {
  const fed = r.items.map((i) => `${steps.get(i)?.key} (${i.role})`).join(', ')
  const list = r.list === undefined ? '' : `; ${r.list.method.toUpperCase()} ${r.list.path} lists`
  return `${r.name}: ${r.create.method.toUpperCase()} ${r.create.path} creates, the id from ${idWords(r.id)}${list}; it feeds ${fed}`
}

/** The resource's routes as steps, or why its sequences cannot run. */
export function resourceRun(r: Resource, run: Run, notes: string[]): ResourceRun | undefined {
  const create = stepRoute(r.create, run)
  if (create.valid === undefined) {
    notes.push(`${r.name}: not sequenced: ${create.key} has no valid requests (${create.why})`)
    return undefined
  }
  const steps = new Map(r.items.map((i) => [i, stepRoute(i.route, run)]))
  for (const s of steps.values())
    if (s.valid === undefined)
      notes.push(`${r.name}: ${s.key} left out of its sequences (${s.why})`)
  const list = r.list && stepRoute(r.list, run)
  return {
    resource: r,
    create,
    list: list?.valid === undefined ? undefined : list,
    steps,
    envelope: run.envelope,
    lastNumeric: undefined,
    lastCreate: undefined,
    noId: false,
    unchecked: false,
  }
}

async function sequences(r: ResourceRun, run: Run, tally: Tally): Promise<FuzzFailure | undefined> {
  const fc = fastCheck()
  const commands = fc.commands(commandsOf(r), { maxCommands: MAX_COMMANDS, size: 'max' })
  const details = await fc.check(
    fc.asyncProperty(commands, async (cmds) => {
      const setup = () => ({
        model: { live: [], gone: [] } as Model,
        real: new Session(run, tally),
      })
      await fc.asyncModelRun(setup, cmds)
    }),
    { numRuns: run.o.sequences, seed: run.o.seed },
  )
  if (!details.failed) return undefined
  const error = details.errorInstance
  if (!(error instanceof SequenceBroken)) throw error
  const session = new Session(run, tally)
  return {
    route: error.route,
    phase: 'stateful',
    invariant: error.message,
    request: error.sequence.at(-1)!,
    sequence: error.sequence,
    stateful: { resource: r.resource.name, steps: error.steps },
    curl: error.sequence.map((req) => session.curl(req)).join('\n'),
    seed: run.o.seed,
  }
}

/**
 * The stateful phase: for each resource (a create and the routes its id feeds), `sequences`
 * sequences of creates, reads, updates, deletes and uses after a delete, shrunk to the shortest
 * that breaks a check: every answer's invariants, a created resource readable and as created
 * (`resource_unavailable`, `resource_mismatch`), a deleted one 404 (`use_after_free`), a failed
 * create stored nowhere (`failed_create_stored`).
 */
export async function statefulRun(
  routes: readonly DiscoveredRoute[],
  run: Run,
): Promise<StatefulRun> {
  const { resources, unlinked } = findResources(routes, run.doc)
  // Without a route an id could feed, there is nothing to sequence and nothing to say.
  if (resources.length === 0) {
    const skipped =
      unlinked.length === 0
        ? []
        : [
            `stateful: no resource to sequence, no create (a POST, or a PUT to a collection) feeds ${unlinked.join(', ')}, and the document declares no links`,
          ]
    return { route: undefined, failures: [], skipped }
  }
  const notes: string[] = []
  const failures: FuzzFailure[] = []
  const tally: Tally = { requests: 0 }
  for (const resource of resources) {
    const r = resourceRun(resource, run, notes)
    if (r === undefined) continue
    notes.push(described(resource, r.steps))
    const failure = await sequences(r, run, tally)
    if (failure !== undefined) failures.push(failure)
    if (r.noId)
      notes.push(
        `${resource.name}: ${r.create.key} answered a success with no id (${idWords(resource.id)}): its sequences stopped at the create`,
      )
    if (r.unchecked)
      notes.push(
        `${resource.name}: failed creates were not checked for what they left: no list route and no numeric ids`,
      )
  }
  if (unlinked.length > 0) notes.push(`no link feeds: ${unlinked.join(', ')}`)
  const route = {
    route: 'stateful',
    requests: tally.requests,
    notes,
    phases: { stateful: tally.requests },
  }
  return { route, failures, skipped: [] }
}
