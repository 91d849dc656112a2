import type { Server, ServerResponse } from 'node:http'

// The requests in flight when a drain begins, found without any work per request or per
// connection before it: Node's HTTP server keeps a list of its connections (since Node 18.2, for
// `closeIdleConnections()` and its header and request timeouts), each holding its socket, whose
// `_httpMessage` is the response being written on it. `closeIdleConnections()` itself reads the
// same two fields to skip a connection whose response is not finished. Neither is public: when a
// Node line lacks them the drain still works, without the list (see `openResponses`).

interface Tracked {
  readonly socket?: { _httpMessage?: unknown } | null
}

interface ConnectionList {
  all(): readonly Tracked[]
}

function connectionList(server: Server): ConnectionList | undefined {
  for (const key of Object.getOwnPropertySymbols(server)) {
    if (key.description !== 'http.server.connections') continue
    const list = (server as unknown as Record<symbol, unknown>)[key] as Partial<ConnectionList>
    return typeof list?.all === 'function' ? (list as ConnectionList) : undefined
  }
  return undefined
}

function isOpenResponse(value: unknown): value is ServerResponse {
  const res = value as Partial<ServerResponse> | null | undefined
  return (
    typeof res?.setHeader === 'function' &&
    typeof res.on === 'function' &&
    res.writableEnded !== true
  )
}

/**
 * The responses not yet ended on `server`'s connections (one per connection: a pipelined
 * request waiting behind another is not among them), or undefined when this Node does not show
 * its connections: the drain then knows only the requests that arrive during it.
 */
export function openResponses(server: Server): ServerResponse[] | undefined {
  const list = connectionList(server)
  if (list === undefined) return undefined
  const open: ServerResponse[] = []
  try {
    for (const connection of list.all()) {
      const res = connection.socket?._httpMessage
      if (isOpenResponse(res)) open.push(res)
    }
  } catch {
    return undefined
  }
  return open
}
