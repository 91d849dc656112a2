export type { StandardSchemaV1 } from './adapters/standard/index.js'
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
export { createDTO, type DTO } from './runtime/create-dto.js'
export { type CreateRouterOptions, createRouter } from './runtime/create-router.js'
export { defineRoute } from './runtime/define-route.js'
export type { ResponseShape, ShapeToken } from './runtime/envelope.js'
export { ErrorCode } from './runtime/error-codes.js'
export { type ErrorHandlerOptions, errorHandler } from './runtime/error-handler.js'
export { handle } from './runtime/handle.js'
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
  ExposureOptions,
  OnErrorHook,
  RequestIdOptions,
  ShapeguardConfig,
  SuccessStatusMethod,
  ValidationOptions,
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
export type {
  BodyOf,
  CacheOptions,
  RateLimitOptions,
  RouteDefinition,
  RouteHandler,
  Schema,
  SchemaInput,
  SchemaOutput,
  SchemaSlot,
  TypedRequest,
  TypedResponse,
} from './runtime/route-types.js'
export { shapeguard } from './runtime/shapeguard.js'
export { type ValidateOptions, validate } from './runtime/validate.js'
export type { ValidationIssue } from './runtime/validation-issue.js'
export { type RouteShapeMap, withShape } from './runtime/with-shape.js'
