import { loadPeer, tryLoadPeer } from '../core/load-peer.js'
import { createConsoleSink } from './console-sink.js'
import { watchForFlush } from './flush-logs.js'
import type { ResolvedLoggerOptions } from './options.js'
import { createPinoSink, type PinoModule } from './pino-sink.js'
import { streamHealth } from './safe-stream.js'
import type { BackendName, LogSink, LogStream } from './types.js'
import { createWinstonSink, type WinstonModule } from './winston-sink.js'

/** Test and embedding hooks: where lines go, and which backend to force. */
export interface BackendDeps {
  stream?: LogStream | undefined
  /** Skip the resolution order and use this backend (it must be installed). */
  backend?: Exclude<BackendName, 'instance'> | undefined
  /** Module loader, `tryLoadPeer` by default (tests pretend a peer is missing). */
  load?: ((name: string) => unknown) | undefined
}

/**
 * The logger resolution order: `logger.instance`, else pino when installed, else winston
 * (through `winstonAdapter`) when installed, else the built-in logger.
 */
export function resolveBackend(options: ResolvedLoggerOptions, deps: BackendDeps = {}): LogSink {
  if (options.instance !== undefined) {
    // console writes to stdout and stderr, where an EPIPE (the reader went away) is an 'error'
    // event that kills the process: watched as shapeguard's own streams are.
    if (options.instance === console) {
      streamHealth(process.stdout)
      streamHealth(process.stderr)
    }
    // pino's own logger flushes its destination: a shutdown waits for it.
    if (typeof (options.instance as { flush?: unknown }).flush === 'function') {
      watchForFlush(options.instance)
    }
    return Object.freeze({
      backend: 'instance',
      logger: options.instance,
      pretty: false,
      colors: false,
      flat: undefined,
    })
  }
  const sinkOptions = {
    pretty: options.pretty,
    stream: deps.stream,
    maxBufferBytes: options.maxBufferBytes,
  }
  const load = deps.load ?? tryLoadPeer
  switch (deps.backend) {
    case 'pino':
      return createPinoSink(loadPeer<PinoModule>('pino', 'the pino log backend'), sinkOptions)
    case 'winston':
      return createWinstonSink(
        loadPeer<WinstonModule>('winston', 'the winston log backend'),
        sinkOptions,
      )
    case 'console':
      return createConsoleSink(sinkOptions)
  }
  const pino = load('pino') as PinoModule | undefined
  if (pino !== undefined) return createPinoSink(pino, sinkOptions)
  const winston = load('winston') as WinstonModule | undefined
  if (winston !== undefined) return createWinstonSink(winston, sinkOptions)
  return createConsoleSink(sinkOptions)
}
