import { logger } from '../logging/logger.js'

// Per store given as `store`: each place a limit counts under (the key before the client) and
// the limit-in-an-app that counts there, held weakly so a discarded app is forgotten.
const owners = new WeakMap<object, Map<string, WeakRef<object>>>()
let warned = false

/**
 * Notes that `owner` (one limit in one app) counts under `place` in `store`, and warns once per
 * process when another owner still alive already does: two apps, or two routers dispatched by
 * hand, with the same method and path share their clients' counts there. Nothing is renamed: a
 * name taken from the order requests arrive in would differ between the processes that share the
 * store, and two of them would then share one count for two routes.
 */
export function claimPlace(store: object, place: string, owner: object): void {
  const places = owners.get(store) ?? new Map<string, WeakRef<object>>()
  owners.set(store, places)
  const held = places.get(place)?.deref()
  if (held === undefined) places.set(place, new WeakRef(owner))
  else if (held !== owner && !warned) {
    warned = true
    // The place is the route as registered, never anything of a request.
    logger.warn(
      { place },
      "shapeguard rateLimit: two limits (two apps, or two routers dispatched by hand, with the same method and path) count in one store under the same key, so their clients share one count; give each app its own store prefix, redisStore({ client, prefix: 'app-name:' }) (logged once)",
    )
  }
}

const apps = new WeakMap<object, number>()
let appCount = 0

/**
 * The app's number in this process, in the order first seen: the memory store counts in this
 * process only, so the number keeps two apps apart wherever one limit serves both.
 */
export function appNumber(app: unknown): number {
  if ((typeof app !== 'function' && typeof app !== 'object') || app === null) return 0
  const n = apps.get(app) ?? ++appCount
  apps.set(app, n)
  return n
}

/** Forgets the once-per-process warning (tests). */
export function resetKeyOwnerWarning(): void {
  warned = false
}
