export type { LogLevel } from './levels.js'
export { type ConfigureLoggerOptions, configureLogger, logger } from './logger.js'
export type { LoggerOptions } from './options.js'
export type { Logger, LogMethod, LogStream } from './types.js'
