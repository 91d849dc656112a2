export {
  type MessageMetaLogger,
  type WinstonLike,
  winstonAdapter,
} from './runtime/logging/winston-adapter.js'
