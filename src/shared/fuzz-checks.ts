/**
 * The entries of a fuzz report that are checks across routes, not routes: the undeclared methods
 * of each path, and the stateful sequences. Counted apart from the routes in every summary.
 */
export const acrossRoutes: ReadonlySet<string> = new Set(['methods', 'stateful'])

/** How many routes a report's entries hold, its checks across routes left out. */
export const routeCount = (routes: readonly { readonly route: string }[]): number =>
  routes.filter((r) => !acrossRoutes.has(r.route)).length
