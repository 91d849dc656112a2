export { valibotAdapter } from './valibot-adapter.js'
