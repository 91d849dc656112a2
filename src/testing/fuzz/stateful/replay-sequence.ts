import type { DiscoveredRoute } from '../../../runtime/pipeline/discover-routes.js'
import type { FuzzFailure, StatefulStep, StatefulSteps } from '../fuzz-report.js'
import type { FuzzRequest } from '../fuzz-request.js'
import type { Run } from '../fuzz-route.js'
import { type Command, commandOf, type Model } from './commands.js'
import { findResources } from './links.js'
import { SequenceBroken, Session, type Tally } from './session.js'
import { resourceRun } from './stateful-run.js'

// A stateful failure replayed: its commands run again, in order, on a new model, as the stateful
// phase ran them. A use takes the id the replayed create got (its answer, its Location header, the
// link's expression), not the one saved; every answer and every sequence check is held again.

/** What replaying a stateful failure gave: the requests sent, and the failure it still is. */
export interface SequenceReplay {
  readonly requests: number
  readonly failure: FuzzFailure | undefined
}

/** A request's masked credentials filled in again, as its route takes them. */
export type Restore = (req: FuzzRequest, route: DiscoveredRoute) => FuzzRequest

// A failure that cannot run again stays a failure: a replay never calls it fixed.
const cannot = (failure: FuzzFailure, why: string): SequenceReplay => ({
  requests: 0,
  failure: { ...failure, invariant: `not replayed: ${why} (${failure.invariant})` },
})

/**
 * Runs a stateful failure's commands again (`failure.stateful`): the failure as it breaks now,
 * or undefined when the whole sequence holds to its checks.
 */
export async function replaySequence(
  failure: FuzzFailure,
  saved: StatefulSteps,
  routes: readonly DiscoveredRoute[],
  run: Run,
  restore: Restore,
): Promise<SequenceReplay> {
  const resource = findResources(routes, run.doc).resources.find((x) => x.name === saved.resource)
  if (resource === undefined)
    return cannot(failure, `the app has no resource ${saved.resource} to sequence now`)
  const notes: string[] = []
  const r = resourceRun(resource, run, notes)
  if (r === undefined) return cannot(failure, notes.join('; '))
  const routeOf = (key: string) =>
    key === r.create.key ? r.create.route : [...r.steps.values()].find((s) => s.key === key)?.route
  const commands: Command[] = []
  for (const step of saved.steps) {
    const route = routeOf(step.route)
    const command = route && commandOf(r, restored(step, route, r.list?.route, restore))
    if (command === undefined)
      return cannot(failure, `${step.route} is not a route of ${saved.resource} now`)
    commands.push(command)
  }
  const tally: Tally = { requests: 0 }
  const session = new Session(run, tally)
  const model: Model = { live: [], gone: [] }
  try {
    for (const [i, command] of commands.entries()) {
      // A step the model cannot take now (the replayed creates made no resource) never ran: the
      // failure is not shown fixed by it.
      if (!command.check(model))
        return {
          ...cannot(failure, `step ${i + 1}, ${saved.steps[i]!.route}, had no resource to act on`),
          requests: tally.requests,
        }
      await command.run(model, session)
    }
  } catch (error) {
    if (!(error instanceof SequenceBroken)) throw error
    const again: FuzzFailure = {
      ...failure,
      route: error.route,
      invariant: error.message,
      request: error.sequence.at(-1)!,
      sequence: error.sequence,
      stateful: { resource: saved.resource, steps: error.steps },
      curl: error.sequence.map((req) => session.curl(req)).join('\n'),
    }
    return { requests: tally.requests, failure: again }
  }
  return { requests: tally.requests, failure: undefined }
}

// A step with the run's credentials where the report masked them.
function restored(
  step: StatefulStep,
  route: DiscoveredRoute,
  list: DiscoveredRoute | undefined,
  restore: Restore,
): StatefulStep {
  const request = restore(step.request, route)
  if (step.list === undefined || list === undefined) return { ...step, request }
  return { ...step, request, list: restore(step.list, list) }
}
