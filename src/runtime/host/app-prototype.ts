interface AppLike {
  readonly request?: object
  readonly response?: object
  readonly parent?: AppLike
}

/**
 * Where what every request or response of an app shares goes (the response helpers,
 * `req.signal`): the request or response prototype of the top app `of` runs in. Express gives
 * each app its own, and a mounted sub-app's inherits its parent's, so every app on the way finds
 * it, and a request that leaves a sub-app (Express then switches its prototype back) keeps it.
 * An object with no such prototype in its chain (a test double) is its own home.
 */
export function appPrototype(of: object, app: unknown, kind: 'request' | 'response'): object {
  let top = app as AppLike | undefined
  // Bounded: a parent chain is as deep as the mounts, and never loops in a working app.
  for (let depth = 0; top?.parent !== undefined && depth < 64; depth++) top = top.parent
  const home = top?.[kind]
  return home !== undefined && Object.prototype.isPrototypeOf.call(home, of) ? home : of
}
