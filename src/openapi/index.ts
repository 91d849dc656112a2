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
