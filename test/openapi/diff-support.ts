// Minimal documents for diffOpenAPI's tests: one operation whose request body and 200 response
// use the schemas given.
type Json = Record<string, unknown>

export function api(options: {
  request?: Json
  response?: Json
  schemas?: Json
  operation?: Json
  openapi?: string
  paths?: Json
  security?: unknown
  securitySchemes?: Json
}): Json {
  const content = (schema: Json | undefined) =>
    schema ? { 'application/json': { schema } } : undefined
  const operation: Json = {
    ...(options.request
      ? { requestBody: { required: true, content: content(options.request) } }
      : {}),
    responses: {
      '200': {
        description: 'ok',
        ...(options.response ? { content: content(options.response) } : {}),
      },
    },
    ...options.operation,
  }
  return {
    openapi: options.openapi ?? '3.1.0',
    info: { title: 't', version: '1' },
    ...(options.security ? { security: options.security } : {}),
    paths: options.paths ?? { '/items/{id}': { post: operation } },
    components: { schemas: options.schemas ?? {}, securitySchemes: options.securitySchemes ?? {} },
  }
}

export const object = (properties: Json, required: string[] = [], extra: Json = {}): Json => ({
  type: 'object',
  properties,
  required,
  ...extra,
})
