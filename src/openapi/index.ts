export { diffOpenAPI } from './diff/diff-openapi.js'
export { type DiffRule, diffRules } from './diff/rules.js'
export type { DiffFinding, DiffLevel } from './diff/types.js'
export {
  type CreateDocsOptions,
  createDocs,
  type DocsAssets,
  type DocsExports,
  type DocsLogo,
  type DocsTheme,
  type DocsUi,
  type ServeDocsOptions,
  type ServeSwaggerUIOptions,
  type ServeUiOptions,
  serveDocs,
  serveRedoc,
  serveScalar,
  serveSwaggerUI,
} from './docs/index.js'
export type { ClientExportOptions } from './exports/model.js'
export { type BrunoCollection, type BrunoItem, toBruno } from './exports/to-bruno.js'
export { type InsomniaExport, type InsomniaResource, toInsomnia } from './exports/to-insomnia.js'
export {
  type PostmanAuth,
  type PostmanCollection,
  type PostmanItem,
  type PostmanVariable,
  toPostman,
} from './exports/to-postman.js'
export { generateOpenAPI } from './generate/generate-openapi.js'
export type {
  EnvelopeShape,
  ExternalDocs,
  OpenAPIConfig,
  OpenAPIDocument,
  OpenAPIRoute,
  OperationOptions,
  ResponseHeader,
  SecurityScheme,
  WarningSink,
} from './generate/types.js'
