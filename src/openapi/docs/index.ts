export type { DocsAssets, DocsUi } from './assets.js'
export { createDocs } from './create-docs.js'
export type { CreateDocsOptions, DocsLogo, DocsTheme } from './create-docs-options.js'
export { type DocsExports, type ServeDocsOptions, serveDocs } from './serve-docs.js'
export {
  type ServeSwaggerUIOptions,
  type ServeUiOptions,
  serveRedoc,
  serveScalar,
  serveSwaggerUI,
} from './serve-ui.js'
