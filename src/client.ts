export { readEvents } from './client/read-events.js'
export { readItems } from './client/read-items.js'
export type {
  EventDataOfSchemas,
  EventSchemas,
  OutputOf,
  StandardSchema,
} from './client/schemas.js'
export { StreamError, type StreamErrorCode } from './client/stream-error.js'
export type {
  EventsOf,
  FetchLike,
  ItemOf,
  ReadEventsOptions,
  ReadItemsOptions,
  ReconnectOptions,
  StreamEvent,
  StreamInput,
  StreamRequestOptions,
} from './client/types.js'
