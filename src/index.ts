export { zodAdapter } from './adapters/zod/index.js'
export type { InferInput, InferOutput, SchemaAdapter } from './engine/adapter.js'
export {
  AppError,
  type AppErrorCode,
  type AppErrorFactory,
  type AppErrorOptions,
  isAppError,
} from './runtime/app-error.js'
export { asyncHandler } from './runtime/async-handler.js'
export { type CreateRouterOptions, createRouter } from './runtime/create-router.js'
export type { ResponseShape, ShapeToken } from './runtime/envelope.js'
export type { ErrorCode } from './runtime/error-codes.js'
export { type ErrorHandlerOptions, errorHandler } from './runtime/error-handler.js'
export {
  type ConfigureLoggerOptions,
  configureLogger,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  type LogMethod,
  logger,
} from './runtime/logging/index.js'
export { type NotFoundHandlerOptions, notFoundHandler } from './runtime/not-found-handler.js'
export type {
  OnErrorHook,
  ShapeguardConfig,
  SuccessStatusMethod,
} from './runtime/resolve-config.js'
export type {
  CreatedOptions,
  CursorPaginatedData,
  CursorPaginatedOptions,
  ErrorEnvelope,
  FailOptions,
  OkOptions,
  PaginatedData,
  PaginatedOptions,
  ResponseHelpers,
  SuccessEnvelope,
} from './runtime/response-types.js'
export { shapeguard } from './runtime/shapeguard.js'
export type { ValidationIssue } from './runtime/validation-issue.js'
export { type RouteShapeMap, withShape } from './runtime/with-shape.js'
