/** One code of the misuse registry: what the mistake is, how to fix it, and the class thrown. */
export interface MisuseEntry {
  /** The heading's gloss on the reference page: the mistake in a few words. */
  readonly title: string
  /** When shapeguard throws it. */
  readonly cause: string
  readonly fix: string
  /** A message it is thrown with, as a test produces it. */
  readonly example: string
  /** `TypeError` for a value shapeguard cannot take; `Error` for what is missing around it. */
  readonly type: 'TypeError' | 'Error'
}

/**
 * Every code of a misuse error: a programmer's mistake shapeguard finds when an option, a route or
 * an argument is given (at mount time, or when a route is defined), never a client's. The thrown
 * error keeps its class and carries the code (`err.code === 'SG_ERR_UNKNOWN_OPTION'`), and its
 * message reads `shapeguard: <where>: <what>[, <fix>]`: the call or option at fault, what is
 * wrong, and the fix when the what does not say it. One code per kind of mistake, whatever the
 * option; codes are never reused for another meaning. docs/misuse-errors.md is written from here
 * (`npm run docs:misuse`), one heading per code.
 */
export const misuseCodes = {
  SG_ERR_UNKNOWN_OPTION: {
    title: 'an option that does not exist',
    cause:
      'An options object has a key the function does not take, often a misspelling (`responce` for `response`). shapeguard never ignores it: the option you meant would silently not apply.',
    fix: 'Use one of the keys the message lists in parentheses (docs/options.md lists them all).',
    example:
      'shapeguard: createRouter(): mergeParam is not an option (Router, caseSensitive, mergeParams, strict)',
    type: 'TypeError',
  },
  SG_ERR_INVALID_OPTION: {
    title: 'an option or argument with a value it cannot take',
    cause:
      'An option or an argument has the wrong type (a string where a boolean goes, an array where an object goes) or a value out of its range or form (a negative limit, a header name with spaces, a URL of a scheme a page must not link to).',
    fix: 'Give the value the message says it must be; docs/options.md gives every option its type.',
    example: 'shapeguard: requestId.header: must be a header name',
    type: 'TypeError',
  },
  SG_ERR_MISSING_OPTION: {
    title: 'a required option or argument is missing',
    cause: 'A function needs an option or an argument that was not given.',
    fix: 'Add what the message names.',
    example: 'shapeguard: handle(): needs a handler function, handle(route, handler)',
    type: 'TypeError',
  },
  SG_ERR_OPTION_CONFLICT: {
    title: 'options that cannot go together',
    cause:
      "Two options contradict each other (`cache.noStore` with `cache.private`), or one only means something with another (`errors.problemTypeBase` without `errors.format: 'problem+json'`).",
    fix: 'Remove one of the options, or add the one the message says the other needs.',
    example:
      'shapeguard: handle(): response and sends are both given, give the response schema as one of them',
    type: 'TypeError',
  },
  SG_ERR_MISPLACED_OPTION: {
    title: 'an option given to the wrong function',
    cause:
      'An option of one function was given to another: a route option (`body`, `response`, `rateLimit`…) to `shapeguard()`, or a logger instance to `configureLogger()`.',
    fix: 'Move the option where the message says it goes.',
    example:
      'shapeguard: shapeguard(): cache is an option of a route, give it to validate(), handle() or defineRoute()',
    type: 'TypeError',
  },
  SG_ERR_FACTORY_NOT_CALLED: {
    title: 'a middleware factory mounted instead of its middleware',
    cause:
      '`app.use(errorHandler)` mounts the factory: Express would call it with a request. The factories (`errorHandler()`, `notFoundHandler()`, `createRouter()`…) make the middleware.',
    fix: 'Call the factory: `app.use(errorHandler())`.',
    example:
      'shapeguard: errorHandler(): makes the middleware, mount app.use(errorHandler()), not app.use(errorHandler)',
    type: 'TypeError',
  },
  SG_ERR_NOT_A_ROUTE: {
    title: 'a route definition that is not one',
    cause:
      '`handle()`, `validate()` or `defineRoute()` was given something other than a route definition, often a schema where the route goes (`handle(schema, …)`).',
    fix: 'Give a route object and the schema as one of its parts: `handle({ body: schema }, handler)`.',
    example:
      'shapeguard: handle(): takes a route, not a schema, give the schema as one of its parts, e.g. { body: schema }',
    type: 'TypeError',
  },
  SG_ERR_NOT_A_SCHEMA: {
    title: 'a schema shapeguard cannot read',
    cause:
      'A part of a route (`body`, `query`…), `createDTO()` or a schema adapter was given a value that is not a schema of a supported library: zod 4, valibot 1, yup 1, or any Standard Schema v1.',
    fix: 'Pass the schema itself (not its type, not a plain object of schemas), or wrap it with its adapter.',
    example:
      'shapeguard: body: expected a zod schema or a schema adapter (zodAdapter, valibotAdapter, yupAdapter) or a Standard Schema object (`~standard`), received an object with keys name',
    type: 'TypeError',
  },
  SG_ERR_SCHEMA_UNSUPPORTED: {
    title: 'a schema of a library version shapeguard cannot take bare',
    cause:
      'A yup schema before yup 1.7 has no Standard Schema interface, so shapeguard cannot read it bare.',
    fix: "Upgrade yup to 1.7 or later, or wrap the schema: `yupAdapter(schema)` from 'shapeguard/adapters/yup'.",
    example:
      "shapeguard: body: a bare yup schema needs yup 1.7 or later (Standard Schema), with an earlier yup 1 wrap it: yupAdapter(schema) from 'shapeguard/adapters/yup'",
    type: 'TypeError',
  },
  SG_ERR_ENVELOPE_SHAPE: {
    title: 'a response shape with a field it cannot have',
    cause:
      "A response shape (`response.shape` of `shapeguard()` or `generateOpenAPI()`, a route's `withShape()`) maps a field to something other than its tokens, or names a field `__proto__`.",
    fix: "Map each field to one of the tokens the message lists, e.g. `{ ok: '{success}', result: '{data}' }`.",
    example:
      'shapeguard: response.shape.ok: must be one of {success}, {data}, {message}, got "{status}"',
    type: 'TypeError',
  },
  SG_ERR_UNKNOWN_NAME: {
    title: 'an option naming something that does not exist',
    cause:
      'An option refers by name to a thing that is not there: `fuzzRoutes()` `routes` naming a route the app lacks, a route of `generateOpenAPI()` naming a security scheme its `security` does not define.',
    fix: 'Fix the name, or define what it names.',
    example:
      'shapeguard: fuzzRoutes(): options.routes names GET /missing, which the app does not have',
    type: 'TypeError',
  },
  SG_ERR_BAD_RETURN: {
    title: 'a function option that returned what it must not',
    cause:
      'A function given as an option (`requestId.generator`, `rateLimit.keyGenerator`) returned a value of the wrong type. It is found when the function is first called, during a request.',
    fix: 'Make the function return what the message says.',
    example: 'shapeguard: requestId.generator: must return a non-empty string, it returned number',
    type: 'TypeError',
  },
  SG_ERR_NOT_AN_APP: {
    title: 'an app that is not an Express app',
    cause:
      'A function that reads the routes of an app (`fuzzRoutes()`, `generateOpenAPI({ app })`) was given something without an Express layer stack.',
    fix: 'Pass the `express()` app or an `express.Router()`, after its routes are mounted.',
    example: 'shapeguard: app: must be an Express app or router (with a layer stack)',
    type: 'TypeError',
  },
  SG_ERR_INSTANCE_INCOMPATIBLE: {
    title: 'a logger, store or client without the methods shapeguard calls',
    cause:
      'An instance given as an option (`logger.instance`, `winstonAdapter()`, `rateLimit.store`, the client of `redisStore()`) does not have the methods shapeguard calls on it.',
    fix: 'Give an instance of a supported kind; the message lists the methods it needs.',
    example:
      'shapeguard: logger.instance: must have the methods debug, info, warn and error, missing: warn',
    type: 'TypeError',
  },
  SG_ERR_STORE_SHARED: {
    title: 'one express-rate-limit store for two routes',
    cause:
      "An express-rate-limit store keeps one window per store, so two routes given the same store would count each other's requests.",
    fix: "Create one store per route; shapeguard's own stores (`redisStore()`, the memory store) may be shared.",
    example:
      'shapeguard: rateLimit.store: this express-rate-limit store is already used by another route, create one per route (stores of ours, such as redisStore(), may be shared)',
    type: 'TypeError',
  },
  SG_ERR_STORE_REPLY: {
    title: 'a Redis reply the rate-limit script never gives',
    cause:
      "`redisStore()`'s script answered something other than its count and time to live: the client talks to a server or proxy that does not run Lua scripts as Redis does.",
    fix: 'Point the client at Redis (or a server that runs EVALSHA as Redis does).',
    example: 'shapeguard: redisStore(): unexpected reply from the rate-limit script',
    type: 'TypeError',
  },
  SG_ERR_NO_VALUES: {
    title: 'a schema arbitrary() cannot draw values from',
    cause:
      '`arbitrary()` was asked for values a schema does not have: valid values of a schema that accepts none, or invalid values of one that accepts every value.',
    fix: 'Check the schema (its refinements may reject everything), or ask for the other mode.',
    example: 'shapeguard: arbitrary(): this schema accepts every value, it has no invalid values',
    type: 'TypeError',
  },
  SG_ERR_PEER_MISSING: {
    title: 'an optional package a feature needs is not installed',
    cause:
      'A feature that runs on an optional peer package (pino, the docs pages served locally…) was used without the package installed.',
    fix: 'Install the package the message names, with the command it gives.',
    example:
      'shapeguard: Swagger UI with local assets: serves its files from the optional package "swagger-ui-dist", which is not installed, install it with: npm install swagger-ui-dist@5',
    type: 'Error',
  },
  SG_ERR_PEER_INCOMPATIBLE: {
    title: 'an optional package of a version without the files a feature needs',
    cause:
      'The installed optional package lacks a file shapeguard serves from it: its major version is not the one shapeguard supports.',
    fix: 'Install the version the message gives.',
    example:
      'shapeguard: Redoc with local assets: needs redoc/bundles/redoc.standalone.js, which the installed "redoc" does not have, install a compatible version: npm install redoc@2',
    type: 'Error',
  },
  SG_ERR_STREAM_STARTED: {
    title: 'a second stream, or a stream after the answer',
    cause:
      '`res.sse()` or `res.ndjson()` was called on a response that already has a stream, or whose answer has already been sent: a request has one response, so one stream.',
    fix: 'Start the stream once, and keep the object it returns for every event.',
    example:
      'shapeguard: res.sse(): the response has a stream already, start one stream per request',
    type: 'Error',
  },
} as const satisfies Record<string, MisuseEntry>

/** The code of a misuse error shapeguard throws (see docs/misuse-errors.md). */
export type MisuseCode = keyof typeof misuseCodes

/** The anchor of a code's heading on docs/misuse-errors.md, as GitHub makes it. */
export const misuseAnchor = (code: MisuseCode): string => code.toLowerCase()
