import type { Server } from 'node:http'

/** Options of `closeGracefully()`. */
export interface CloseOptions {
  shutdownMs?: number
}

/** Drains a server the user made. (Built by the shutdown part of issue 47.) */
export function closeGracefully(_server: Server, _options?: CloseOptions): Promise<void> {
  throw new Error('not built yet')
}
