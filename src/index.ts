export { zodAdapter } from './adapters/zod/index.js'
export type { InferInput, InferOutput, SchemaAdapter } from './engine/adapter.js'
export type { StandardSchemaV1 } from './engine/standard-schema.js'
export { type CreateDocsOptions, createDocs } from './openapi/docs/index.js'
export {
  type EnvelopeShape,
  type ExternalDocs,
  generateOpenAPI,
  type OpenAPIConfig,
  type OpenAPIDocument,
  type OpenAPIRoute,
  type OperationOptions,
  type ResponseHeader,
  type SecurityScheme,
  type WarningSink,
} from './openapi/index.js'
export { safeEqual } from './runtime/auth/safe-equal.js'
export type {
  AuthConfig,
  AuthOf,
  PrincipalOf,
  Register,
  SchemeName,
} from './runtime/auth/types.js'
export type { CookieOptions } from './runtime/cookies/cookie-options.js'
export {
  AppError,
  type AppErrorCode,
  type AppErrorFactory,
  type AppErrorOptions,
  type DeclaredError,
  type DefineOptions,
  isAppError,
} from './runtime/core/app-error.js'
export type { ErrorFormat, OnErrorHook } from './runtime/core/config.js'
export type { ErrorsOptions } from './runtime/core/resolve-errors.js'
export { isStreamClosed, StreamClosedError } from './runtime/core/stream-closed.js'
export type { ValidationIssue } from './runtime/core/validation-issue.js'
export { type ErrorHandlerOptions, errorHandler } from './runtime/errors/error-handler.js'
export { type CloseOptions, closeGracefully } from './runtime/lifecycle/close-gracefully.js'
export { type HealthOptions, type HealthPaths, health } from './runtime/lifecycle/health.js'
export type { HealthCheck, HealthCheckFn } from './runtime/lifecycle/health-checks.js'
export type { OverloadOptions } from './runtime/lifecycle/overload-options.js'
export { type ServedServer, type ServeOptions, serve } from './runtime/lifecycle/serve.js'
export type { TimeoutOption, TimeoutOptions } from './runtime/lifecycle/timeout-options.js'
export {
  type ConfigureLoggerOptions,
  configureLogger,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  type LogMethod,
  logger,
} from './runtime/logging/index.js'
export type {
  ExposureOptions,
  RequestIdOptions,
  ShapeguardConfig,
  SuccessStatusMethod,
  ValidationOptions,
} from './runtime/middleware/resolve-config.js'
export { shapeguard } from './runtime/middleware/shapeguard.js'
export { createDTO, type DTO } from './runtime/pipeline/create-dto.js'
export { defineRoute } from './runtime/pipeline/define-route.js'
export { handle } from './runtime/pipeline/handle.js'
export type {
  RouteHandler,
  StreamRequest,
  TypedRequest,
  TypedResponse,
} from './runtime/pipeline/handler-types.js'
export type {
  BodyOf,
  EventDataOf,
  EventsSlot,
  FilesSlot,
  RequestBodyOf,
  RouteDefinition,
  RouteSlots,
  Schema,
  SchemaInput,
  SchemaOutput,
  SchemaSlot,
} from './runtime/pipeline/route-types.js'
export { type ValidateOptions, validate } from './runtime/pipeline/validate.js'
export type {
  RateLimitEntry,
  RateLimitGetSetStore,
  RateLimitIncrementStore,
  RateLimitOptions,
  RateLimitStore,
} from './runtime/rate-limit/types.js'
export type { CacheOptions } from './runtime/response/cache-control.js'
export type {
  NdjsonHelper,
  NdjsonStream,
  SseOptions,
  SseSendOptions,
  SseStream,
  StreamItems,
} from './runtime/response/stream-types.js'
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
  ResponseSent,
  SuccessEnvelope,
} from './runtime/response/types.js'
export { type RouteShapeMap, withShape } from './runtime/response/with-shape.js'
export { asyncHandler } from './runtime/router/async-handler.js'
export { type CreateRouterOptions, createRouter } from './runtime/router/create-router.js'
export { type NotFoundHandlerOptions, notFoundHandler } from './runtime/router/not-found-handler.js'
export { type BodyParserVerify, rawBody } from './runtime/webhooks/raw-body.js'
export type {
  CustomWebhookOptions,
  PlainPresetOptions,
  TimestampedPresetOptions,
  TimestampedWebhookProvider,
  TwilioPresetOptions,
  VerifyWebhookOptions,
  WebhookCommonOptions,
  WebhookFailureReason,
  WebhookProvider,
} from './runtime/webhooks/types.js'
export { verifyWebhook } from './runtime/webhooks/verify-webhook.js'
export type { DeprecatedOption, DeprecationDate } from './shared/deprecation.js'
export type { ResponseShape, ShapeToken } from './shared/envelope-shape.js'
export { ErrorCode } from './shared/error-codes.js'
export {
  type FileField,
  type FileManyOptions,
  type FileOf,
  type FileOptions,
  type FileStorage,
  type FilesOf,
  file,
  type StoredFile,
  type UploadedFile,
} from './shared/file-field.js'
export type { ProblemDetails, ProblemIssue } from './shared/problem-details.js'
export type {
  ApiKeyScheme,
  BasicScheme,
  BasicVerifier,
  BearerScheme,
  BearerVerifier,
  CustomScheme,
  KeyVerifier,
  RequestVerifier,
  SecurityRequirement,
  Verdict,
} from './shared/security-scheme.js'
