import fc from 'fast-check'

// Random documents, shaped like OpenAPI but with anything in any field: schemas that refer to
// each other (cycles included), parameters, bodies and security of every shape.

const names = ['A', 'B', 'C', '__proto__', 'constructor']
const ref = fc.constantFrom(...names).map((n) => ({ $ref: `#/components/schemas/${n}` }))

const { schema } = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small' },
    ref,
    fc.jsonValue({ maxDepth: 2 }),
    fc.record(
      {
        type: fc.constantFrom('object', 'array', 'string', 'integer', 'number', 'boolean', 'null', [
          'string',
          'null',
        ]),
        properties: fc.dictionary(fc.constantFrom('a', 'b', '__proto__', '{{x}}'), tie('schema'), {
          maxKeys: 3,
        }),
        required: fc.array(fc.constantFrom('a', 'b', '__proto__', 'zz'), { maxLength: 3 }),
        items: tie('schema'),
        allOf: fc.array(tie('schema'), { maxLength: 3 }),
        oneOf: fc.array(tie('schema'), { maxLength: 3 }),
        anyOf: fc.array(tie('schema'), { maxLength: 3 }),
        enum: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
        const: fc.jsonValue({ maxDepth: 1 }),
        pattern: fc.oneof(
          fc.string(),
          fc.constantFrom('^(a+)+$', '[', '(?=a)', '\\', '^[a-z]{2,5}$'),
        ),
        format: fc.constantFrom('email', 'uuid', 'binary', 'date-time', 'nope'),
        minimum: fc.oneof(fc.integer(), fc.double()),
        maximum: fc.oneof(fc.integer(), fc.double()),
        multipleOf: fc.oneof(fc.integer(), fc.double()),
        minLength: fc.oneof(fc.nat(), fc.constant(1e12)),
        minItems: fc.oneof(fc.nat({ max: 5 }), fc.constant(1e9)),
        additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
        not: fc.constantFrom({}, { type: 'string' }),
      },
      { requiredKeys: [] },
    ),
  ),
}))

const parameter = fc.record(
  {
    name: fc.string(),
    in: fc.constantFrom('query', 'header', 'path', 'cookie', 'body', 7),
    required: fc.boolean(),
    style: fc.constantFrom('form', 'deepObject', 'simple', 'pipeDelimited'),
    explode: fc.boolean(),
    schema,
    example: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
)

const operation = fc.record(
  {
    tags: fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 2 }),
    summary: fc.string(),
    operationId: fc.string(),
    parameters: fc.array(fc.oneof(parameter, ref, fc.jsonValue({ maxDepth: 1 })), { maxLength: 4 }),
    requestBody: fc.record({
      content: fc.dictionary(
        fc.constantFrom(
          'application/json',
          'multipart/form-data',
          'application/x-www-form-urlencoded',
          'text/plain',
          'x/y',
          '*/*',
        ),
        fc.record({ schema, example: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }),
        { maxKeys: 2 },
      ),
    }),
    security: fc.array(
      fc.dictionary(
        fc.constantFrom('s1', 's2', '__proto__', 'none'),
        fc.array(fc.string(), { maxLength: 2 }),
      ),
      { maxLength: 2 },
    ),
  },
  { requiredKeys: [] },
)

const scheme = fc.oneof(
  fc.record({
    type: fc.constant('http'),
    scheme: fc.constantFrom('bearer', 'basic', 'digest', 'hoba'),
  }),
  fc.record({
    type: fc.constant('apiKey'),
    in: fc.constantFrom('header', 'query', 'cookie', 'body'),
    name: fc.string(),
  }),
  fc.record({
    type: fc.constant('oauth2'),
    flows: fc.dictionary(
      fc.constantFrom('implicit', 'password', 'clientCredentials', 'authorizationCode', 'x'),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  }),
  fc.jsonValue({ maxDepth: 1 }),
)

export const documentArb = fc.record({
  openapi: fc.constantFrom('3.0.3', '3.1.0'),
  info: fc.record({ title: fc.string(), version: fc.string() }),
  servers: fc.array(fc.record({ url: fc.string(), variables: fc.jsonValue({ maxDepth: 2 }) }), {
    maxLength: 1,
  }),
  security: fc.array(fc.dictionary(fc.constantFrom('s1', 's2'), fc.constant([])), { maxLength: 1 }),
  paths: fc.dictionary(
    fc.oneof(fc.string(), fc.constantFrom('/a/{id}', '/{x}{y}/z', '/{}', '/a/{{b}}')),
    fc.dictionary(
      fc.constantFrom('get', 'post', 'put', 'parameters', '__proto__', 'x-ext'),
      operation,
      { maxKeys: 3 },
    ),
    { maxKeys: 3 },
  ),
  components: fc.record({
    schemas: fc.dictionary(fc.constantFrom(...names), schema, { maxKeys: 5 }),
    securitySchemes: fc.dictionary(fc.constantFrom('s1', 's2', '__proto__'), scheme, {
      maxKeys: 3,
    }),
  }),
})
