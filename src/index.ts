export {
  type ConfigureLoggerOptions,
  configureLogger,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  type LogMethod,
  logger,
} from './runtime/logging/index.js'
