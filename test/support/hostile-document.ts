// A hostile OpenAPI document: template expressions, control characters and header injections in
// every text, prototype keys everywhere, a reference cycle, a chain of 2000 references, and a chain
// of `wideDepth` schemas that each refer to the next from 12 properties (12^wideDepth paths, were
// an exporter to follow each one). Built from JSON text, as a document read from a request or a
// file is: `__proto__` is an own key.

/** The most reads of a document one export may take: five times what the hostile one needs. */
export const maxReads = 1_000_000

export const evil = '{{awsSecret}}{% raw %}{#x#}'

export function hostileDocument(wideDepth = 30): unknown {
  return JSON.parse(
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: `${evil}\u0000\u2028title`, version: evil, description: evil },
      servers: [
        { url: `https://{host}/${evil}`, variables: { host: { default: '{{internal}}' } } },
      ],
      tags: [{ name: evil, description: evil }, { name: '__proto__' }, 5, null],
      security: [{ ['__proto__']: [] }, { constructor: [] }, { key: [] }],
      paths: {
        [`/a/{${evil}}/{id}/:x/{{y}}?q#h`]: {
          parameters: [null, 7, 'x', { $ref: '#/components/parameters/__proto__' }],
          get: {
            tags: [evil],
            summary: `${evil}${'long '.repeat(10_000)}`,
            parameters: [
              { name: evil, in: 'query', example: evil },
              { name: 'id', in: 'path', schema: { type: 'string', enum: [evil] } },
              {
                name: 'h',
                in: 'header',
                required: true,
                schema: { type: 'string', default: `${evil}\r\nX-Injected: 1` },
              },
              { name: '__proto__', in: 'cookie', schema: { const: evil } },
              { name: 'constructor', in: 'query' },
            ],
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['__proto__', 'evil'],
                    properties: {
                      ['__proto__']: {
                        type: 'object',
                        properties: { polluted: { const: true } },
                        required: ['polluted'],
                      },
                      deep: { $ref: '#/components/schemas/D0' },
                      evil: { const: evil },
                      cycle: { $ref: '#/components/schemas/Self' },
                      wide: { $ref: '#/components/schemas/W0' },
                      huge: { type: 'string', minLength: 1e12, pattern: '^(a+)+$' },
                      many: { type: 'array', minItems: 1e9, items: { type: 'integer' } },
                      missing: { $ref: '#/components/schemas/constructor' },
                      outside: { $ref: 'https://example.com/schema.json' },
                      pointer: { $ref: '#/__proto__/polluted' },
                    },
                  },
                },
              },
            },
          },
          post: {
            summary: 'form',
            requestBody: {
              content: { 'multipart/form-data': { schema: { $ref: '#/components/schemas/Self' } } },
            },
          },
          ['__proto__']: { summary: 'not a method' },
        },
        '/b': null,
        '/c': { get: [] },
        '/d': { $ref: '#/paths/~1d' },
      },
      components: {
        securitySchemes: {
          ['__proto__']: { type: 'apiKey', in: 'header', name: evil },
          constructor: { type: 'http', scheme: 'bearer' },
          key: {
            type: 'oauth2',
            flows: { implicit: { authorizationUrl: evil, scopes: { [evil]: 'x' } } },
          },
        },
        parameters: { ['__proto__']: { name: 'p', in: 'query' } },
        schemas: {
          Self: {
            allOf: [{ $ref: '#/components/schemas/Self' }],
            properties: { a: { $ref: '#/components/schemas/Self' } },
          },
          ...Object.fromEntries(
            Array.from({ length: 2000 }, (_, i) => [
              `D${i}`,
              {
                type: 'object',
                required: ['next'],
                properties: { next: { $ref: `#/components/schemas/D${i + 1}` } },
              },
            ]),
          ),
          D2000: { type: 'string' },
          ...Object.fromEntries(
            Array.from({ length: wideDepth }, (_, i) => [
              `W${i}`,
              {
                type: 'object',
                properties: Object.fromEntries(
                  Array.from({ length: 12 }, (_, j) => [
                    `p${j}`,
                    { $ref: `#/components/schemas/W${i + 1}` },
                  ]),
                ),
              },
            ]),
          ),
          [`W${wideDepth}`]: { type: 'integer' },
        },
      },
    }),
  )
}
