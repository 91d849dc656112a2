import type { Request } from 'express'

// Which servers are draining (closeGracefully() began on them), and whether serve()'s signal
// handling began a shutdown of the whole process: readiness answers 503 from that moment.

const draining = new WeakSet<object>()
let processDraining = false

/** closeGracefully(): the server stops taking work. */
export function markDraining(server: object): void {
  draining.add(server)
}

/** serve() on SIGTERM/SIGINT: the whole process is going. */
export function markProcessDraining(): void {
  processDraining = true
}

/** Whether the request's server, or the process, is shutting down. */
export function isDraining(req: Request): boolean {
  if (processDraining) return true
  const server = (req.socket as { server?: object } | undefined)?.server
  return server !== undefined && draining.has(server)
}
