import type { Server } from 'node:http'

/** Options of `serve()`. */
export interface ServeOptions {
  port?: number
  host?: string
  shutdownMs?: number
  signals?: readonly NodeJS.Signals[]
}

/** Starts the app's server and drains it on SIGTERM/SIGINT. (Built by the shutdown part of issue 47.) */
export function serve(_app: unknown, _options?: ServeOptions): Promise<Server> {
  throw new Error('not built yet')
}
