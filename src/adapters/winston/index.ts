export { type WinstonLike, winstonAdapter } from './winston-adapter.js'
