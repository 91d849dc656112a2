// One line of code for each export of docs/reference/api.md, by export name. Each is compiled by
// test/readme/reference-api.test.ts as a module of its own, with imports added for the exports,
// the schema libraries and the givens (test/readme/givens.ts, test/readme/api-givens.ts) it uses.
export const examples: Readonly<Record<string, string>> = {
  // shapeguard: adapters and schemas
  zodAdapter: 'const body = zodAdapter(z.object({ name: z.string() }))',
  InferInput: 'type Input = InferInput<ReturnType<typeof zodAdapter<typeof CreateUser>>>',
  InferOutput: 'type Output = InferOutput<ReturnType<typeof zodAdapter<typeof CreateUser>>>',
  SchemaAdapter: 'const adapter: SchemaAdapter<{ name: string }> = zodAdapter(CreateUser)',
  StandardSchemaV1: 'const standard: StandardSchemaV1<{ name: string }> = CreateUser',
  Schema: 'const schemas: Schema[] = [CreateUser, zodAdapter(User)]',
  SchemaInput: 'type Input = SchemaInput<typeof CreateUser> // { name: string }',
  SchemaOutput: 'type Output = SchemaOutput<typeof User> // { id: number; name: string }',
  SchemaSlot: 'const body: SchemaSlot = undefined',
  createDTO: 'const CreateUserDTO = createDTO(z.object({ name: z.string() }))',
  DTO: 'const dto: DTO<typeof CreateUser> = createDTO(CreateUser)',

  // OpenAPI and docs
  createDocs: "app.use('/docs', createDocs({ spec, title: 'Shop API', assets: 'local' }))",
  CreateDocsOptions:
    "const options: CreateDocsOptions = { spec, title: 'Shop API', theme: 'dark' }",
  generateOpenAPI:
    "const doc = generateOpenAPI({ title: 'Shop', version: '1.0.0', routes: { 'POST /users': { body: CreateUser } } })",
  OpenAPIConfig: "const config: OpenAPIConfig = { title: 'Shop', version: '1.0.0', routes: {} }",
  OpenAPIDocument:
    "const doc: OpenAPIDocument = generateOpenAPI({ title: 'Shop', version: '1.0.0', routes: {} })",
  OpenAPIRoute:
    "const route: OpenAPIRoute = { body: CreateUser, response: User, summary: 'Create a user' }",
  OperationOptions:
    "const operation: OperationOptions = { summary: 'Create a user', tags: ['users'] }",
  EnvelopeShape: "const shape: EnvelopeShape = { ok: '{success}', result: '{data}' }",
  ExternalDocs:
    "const docs: ExternalDocs = { url: 'https://example.com/guide', description: 'Guide' }",
  ResponseHeader:
    "const header: ResponseHeader = { description: 'Items left', schema: z.number() }",
  SecurityScheme: "const scheme: SecurityScheme = { type: 'http', scheme: 'bearer' }",
  WarningSink: 'const onWarning: WarningSink = (message) => console.warn(message)',

  // auth
  safeEqual: "const ok = safeEqual('given-key', 'expected-key')",
  AuthConfig:
    "const auth: AuthConfig = { bearer: (token) => (token === 'secret' ? { id: 'u1' } : undefined) }",
  AuthOf: 'type Principal = AuthOf<undefined>',
  PrincipalOf:
    'type Principal = PrincipalOf<(token: string) => { id: string } | undefined> // { id: string }',
  Register:
    "declare module 'shapeguard' { interface Register { auth: { bearer: { id: string } } } }",
  SchemeName: "const name: SchemeName = 'bearer'",
  ApiKeyScheme:
    "const scheme: ApiKeyScheme = { in: 'header', name: 'x-api-key', verify: (key) => key === 'k' }",
  BasicScheme:
    "const scheme: BasicScheme = { type: 'basic', verify: (user, password) => user === 'admin' && password === 'pw' }",
  BasicVerifier:
    "const verify: BasicVerifier = (user, password) => (user === 'admin' && password === 'pw' ? { user } : undefined)",
  BearerScheme:
    "const scheme: BearerScheme = { type: 'bearer', verify: (token) => token === 't', bearerFormat: 'JWT' }",
  BearerVerifier:
    "const verify: BearerVerifier<{ id: string }> = (token) => (token === 't' ? { id: 'u1' } : undefined)",
  CustomScheme:
    "const scheme: CustomScheme = { type: 'custom', verify: () => true, document: { type: 'apiKey', in: 'cookie', name: 'sid' } }",
  KeyVerifier: "const verify: KeyVerifier = (key) => key === 'k'",
  RequestVerifier: 'const verify: RequestVerifier = (req) => req !== undefined',
  SecurityRequirement: "const security: SecurityRequirement = ['bearer', ['apiKey', 'basic']]",
  Verdict: 'const refused: Verdict<{ id: string }> = undefined',
  CookieOptions:
    "const cookies: CookieOptions = { secrets: ['current-secret', 'previous-secret'] }",

  // errors
  AppError: "throw new AppError('OUT_OF_STOCK', 'Item is out of stock', 409, { sku: 'A1' })",
  AppErrorCode: "const code: AppErrorCode = 'NOT_FOUND'",
  AppErrorFactory:
    "const OutOfStock: AppErrorFactory<{ sku: string }, 'OUT_OF_STOCK'> = AppError.define('OUT_OF_STOCK', 409)",
  AppErrorOptions:
    "const options: AppErrorOptions = { cause: new Error('db down'), isOperational: true }",
  DeclaredError:
    "const errors: DeclaredError[] = ['NOT_FOUND', AppError.define('OUT_OF_STOCK', 409)]",
  DefineOptions: 'const options: DefineOptions = { details: z.object({ sku: z.string() }) }',
  isAppError: 'const status = (err: unknown) => (isAppError(err) ? err.statusCode : 500)',
  ErrorFormat: "const format: ErrorFormat = 'problem+json'",
  OnErrorHook: 'const onError: OnErrorHook = (err, req) => console.error(req.id, err.code)',
  ErrorsOptions:
    "const errors: ErrorsOptions = { format: 'problem+json', fallbackMessage: 'Try again later' }",
  isStreamClosed: 'const gone = (err: unknown) => isStreamClosed(err)',
  StreamClosedError: 'const closed = (err: unknown) => err instanceof StreamClosedError',
  ValidationIssue: "const issue: ValidationIssue = { field: 'email', message: 'Invalid email' }",
  ErrorHandlerOptions:
    "const options: ErrorHandlerOptions = { fallbackMessage: 'Something went wrong' }",
  errorHandler: 'app.use(errorHandler({ onError: (err) => console.error(err.code) }))',
  ErrorCode: 'const notFound = (code: string) => code === ErrorCode.NOT_FOUND',
  ProblemDetails:
    "const isProblem = (body: unknown): body is ProblemDetails => typeof body === 'object'",
  ProblemIssue:
    "const issue: ProblemIssue = { field: 'email', message: 'Invalid email', in: 'body' }",

  // lifecycle
  CloseOptions: 'const options: CloseOptions = { shutdownMs: 10_000 }',
  closeGracefully: "process.once('SIGTERM', () => closeGracefully(server))",
  HealthOptions:
    'const options: HealthOptions = { checks: { db: async () => true }, timeoutMs: 1000 }',
  HealthPaths: "const paths: HealthPaths = { liveness: '/live', readiness: '/ready' }",
  health: 'app.use(health({ checks: { db: async () => true } }))',
  HealthCheck: 'const check: HealthCheck = { check: async () => true, timeoutMs: 500 }',
  HealthCheckFn:
    "const check: HealthCheckFn = (signal) => fetch('http://localhost:9200', { signal })",
  OverloadOptions: 'const overload: OverloadOptions = { maxEventLoopDelayMs: 200, retryAfter: 5 }',
  ServedServer: 'const stop = (served: ServedServer) => served.shutdown()',
  ServeOptions: 'const options: ServeOptions = { port: 8080, drainDelayMs: 5000 }',
  serve: 'const served = await serve(app, { port: 8080 })',
  TimeoutOption: 'const timeout: TimeoutOption = 5000',
  TimeoutOptions: 'const timeout: TimeoutOptions = { handler: 5000, idle: 30_000 }',

  // logging and configuration
  ConfigureLoggerOptions: "const options: ConfigureLoggerOptions = { level: 'warn' }",
  configureLogger: "configureLogger({ level: 'error' })",
  Logger: 'const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} }',
  LoggerOptions:
    "const options: LoggerOptions = { level: 'info', pretty: false, redact: ['body.card'] }",
  LogLevel: "const level: LogLevel = 'warn'",
  LogMethod: 'const log: LogMethod = logger.info',
  logger: "logger.warn({ orderId: 42 }, 'payment retried')",
  ExposureOptions: 'const exposure: ExposureOptions = { exposeEnumValues: false }',
  RequestIdOptions: "const requestId: RequestIdOptions = { header: 'x-correlation-id' }",
  ShapeguardConfig:
    "const config: ShapeguardConfig = { validation: { strings: { trim: true } }, errors: { format: 'problem+json' } }",
  SuccessStatusMethod: "const method: SuccessStatusMethod = 'POST'",
  ValidationOptions:
    'const validation: ValidationOptions = { strings: { trim: true }, limits: { maxDepth: 10 } }',
  shapeguard: 'app.use(shapeguard({ response: { statusCodes: { POST: 200 } } }))',

  // routes
  defineRoute: 'const createUser = defineRoute({ body: CreateUser, response: User })',
  handle:
    "app.post('/users', handle({ body: CreateUser }, async (req, res) => res.created({ data: req.body })))",
  validate: "app.post('/users', validate({ body: CreateUser }), handler)",
  ValidateOptions: 'const route: ValidateOptions = { body: CreateUser }',
  RouteHandler:
    'const create: RouteHandler<{ body: typeof CreateUser }> = (req, res) => res.created({ data: req.body })',
  StreamRequest: 'const lastId = (req: StreamRequest) => req.lastEventId',
  TypedRequest: 'const name = (req: TypedRequest<{ body: typeof CreateUser }>) => req.body.name',
  TypedResponse:
    "const send = (res: TypedResponse<{ response: typeof User }>) => res.ok({ data: { id: 1, name: 'Ada' } })",
  BodyOf: 'type Body = BodyOf<typeof CreateUser> // { name: string }',
  EventDataOf: 'type Data = EventDataOf<{ events: { tick: typeof User } }>',
  EventsSlot: 'const events: EventsSlot = { tick: User }',
  FilesSlot: 'const files: FilesSlot = { avatar: file() }',
  RequestBodyOf: 'type Body = RequestBodyOf<{ body: typeof CreateUser }> // { name: string }',
  RouteDefinition: 'type Route = RouteDefinition<{ body: typeof CreateUser }>',
  RouteSlots: 'const slots: RouteSlots = { body: CreateUser, response: User }',
  withShape: "app.get('/health', withShape('raw'), (req, res) => res.ok({ data: { up: true } }))",
  RouteShapeMap: "const shape: RouteShapeMap = { id: '{data.user.id}' }",
  asyncHandler: "app.get('/users', asyncHandler(async (req, res) => res.ok({ data: [] })))",
  CreateRouterOptions: 'const options: CreateRouterOptions = { mergeParams: true }',
  createRouter: "const router = createRouter(); router.get('/users/:id', handler)",
  NotFoundHandlerOptions: "const options: NotFoundHandlerOptions = { message: 'No such page' }",
  notFoundHandler: 'app.use(notFoundHandler(), errorHandler())',

  // rate limits and caching
  RateLimitEntry: 'const entry: RateLimitEntry = { count: 1, reset: Date.now() + 60_000 }',
  RateLimitGetSetStore:
    'const store: RateLimitGetSetStore = { get: () => undefined, set: () => {} }',
  RateLimitIncrementStore:
    'const store: RateLimitIncrementStore = { increment: (key, windowMs) => ({ count: 1, reset: Date.now() + windowMs }) }',
  RateLimitOptions: 'const rateLimit: RateLimitOptions = { windowMs: 60_000, max: 100 }',
  RateLimitStore:
    'const store: RateLimitStore = redisStore({ client: { call: async () => null } })',
  CacheOptions: 'const cache: CacheOptions = { maxAge: 60, staleWhileRevalidate: 30 }',

  // responses and streams
  NdjsonHelper: 'const sendRows = (ndjson: NdjsonHelper<{ id: number }>) => ndjson([{ id: 1 }])',
  NdjsonStream: 'const end = (stream: NdjsonStream) => stream.close()',
  SseOptions: 'const options: SseOptions = { heartbeat: 10_000, retry: 3000 }',
  SseSendOptions: "const options: SseSendOptions = { id: '42' }",
  SseStream:
    "const tick = (stream: SseStream<{ tick: { n: number } }>) => stream.send('tick', { n: 1 })",
  StreamItems: 'const items: StreamItems<number> = [1, 2, 3]',
  CreatedOptions:
    "const options: CreatedOptions<{ id: number }> = { data: { id: 1 }, message: 'Created' }",
  CursorPaginatedData:
    'const page: CursorPaginatedData = { items: [], nextCursor: null, prevCursor: null, hasMore: false }',
  CursorPaginatedOptions:
    'const options: CursorPaginatedOptions = { data: [], nextCursor: null, hasMore: false }',
  ErrorEnvelope:
    "const body: ErrorEnvelope = { success: false, message: 'Not found', error: { code: 'NOT_FOUND', message: 'Not found', details: null } }",
  FailOptions:
    "const options: FailOptions = { code: 'OUT_OF_STOCK', message: 'Sold out', status: 409 }",
  OkOptions: 'const options: OkOptions<{ id: number }> = { data: { id: 1 } }',
  PaginatedData:
    'const page: PaginatedData = { items: [], total: 0, page: 1, limit: 20, pages: 0 }',
  PaginatedOptions: 'const options: PaginatedOptions = { data: [], total: 0, page: 1, limit: 20 }',
  ResponseHelpers: "const answer = (res: ResponseHelpers) => res.ok({ data: 'pong' })",
  ResponseSent: 'const sent: ResponseSent = undefined',
  SuccessEnvelope:
    "const body: SuccessEnvelope<{ id: number }> = { success: true, message: '', data: { id: 1 } }",
  ResponseShape:
    "const shape: ResponseShape = { ok: '{success}', result: '{data}', msg: '{message}' }",
  ShapeToken: "const token: ShapeToken = '{data}'",
  DeprecatedOption:
    "const deprecated: DeprecatedOption = { since: '2025-01-01', sunset: '2026-01-01' }",
  DeprecationDate: "const sunset: DeprecationDate = new Date('2026-01-01')",

  // webhooks
  BodyParserVerify: 'const verify: BodyParserVerify = rawBody()',
  rawBody:
    "app.post('/hooks/stripe', express.json({ verify: rawBody() }), verifyWebhook({ provider: 'stripe', secret: 'whsec_x' }), handler)",
  CustomWebhookOptions:
    "const options: CustomWebhookOptions = { headerName: 'x-signature', secret: 's', algorithm: 'sha256' }",
  PlainPresetOptions: "const options: PlainPresetOptions = { provider: 'github', secret: 's' }",
  TimestampedPresetOptions:
    "const options: TimestampedPresetOptions = { provider: 'stripe', secret: 'whsec_x', toleranceSecs: 300 }",
  TimestampedWebhookProvider: "const provider: TimestampedWebhookProvider = 'svix'",
  TwilioPresetOptions:
    "const options: TwilioPresetOptions = { provider: 'twilio', secret: 's', publicUrl: 'https://example.com/hooks/twilio' }",
  VerifyWebhookOptions:
    "const options: VerifyWebhookOptions = { provider: 'shopify', secret: 's' }",
  WebhookCommonOptions:
    "const common: WebhookCommonOptions = { secret: ['new-secret', 'old-secret'] }",
  WebhookFailureReason: "const reason: WebhookFailureReason = 'signature-mismatch'",
  WebhookProvider: "const provider: WebhookProvider = 'github'",
  verifyWebhook:
    "app.post('/hooks/github', express.raw({ type: 'application/json' }), verifyWebhook({ provider: 'github', secret: 's' }), handler)",

  // files
  file: "const avatar = handle({ files: { avatar: file({ types: ['image/png'], maxBytes: 2_000_000 }) } }, handler)",
  FileField: "const avatar: FileField = file({ types: ['image/png'] })",
  FileManyOptions: "const options: FileManyOptions = { types: ['image/*'], max: 5 }",
  FileOf: 'type Avatar = FileOf<ReturnType<typeof file>> // UploadedFile',
  FileOptions: "const options: FileOptions = { types: ['application/pdf'], maxBytes: 10_000_000 }",
  FileStorage: "const storage: FileStorage = 'disk'",
  FilesOf: 'type Files = FilesOf<{ avatar: ReturnType<typeof file> }>',
  StoredFile: 'const where = (f: StoredFile) => f.path',
  UploadedFile: 'const size = (f: UploadedFile) => f.buffer.byteLength',

  // shapeguard/testing
  ArbitraryMode: "const mode: ArbitraryMode = 'hostile'",
  ArbitraryOptions: "const options: ArbitraryOptions = { mode: 'invalid' }",
  arbitrary: 'fc.assert(fc.property(arbitrary(User), (user) => User.safeParse(user).success))',
  ItemKind: "const kind: ItemKind = 'branches'",
  CoverageCount: 'const percent = (count: CoverageCount) => count.percent',
  CoverageMetric: "const metric: CoverageMetric = 'statuses'",
  CoverageReport: 'const overall = (r: CoverageReport) => r.overall.percent',
  CoverageReportOptions:
    "const options: CoverageReportOptions = { openapi: generateOpenAPI({ title: 'Shop', version: '1', routes: {} }) }",
  Covered: 'const missing = (statuses: Covered<number>) => statuses.missing',
  coverageMetrics:
    'for (const metric of coverageMetrics) console.log(metric, coverage.totals[metric].percent)',
  coverageReport: "console.log(coverageTable(coverageReport(app, readCoverage('.coverage'))))",
  RouteCoverage: 'const requests = (route: RouteCoverage) => route.requests',
  coverageTable: 'console.log(coverageTable(coverage))',
  Coverage: 'const done = (recorded: Coverage) => recorded.stop()',
  RecordCoverageOptions: "const options: RecordCoverageOptions = { dir: '.coverage' }",
  recordCoverage: 'const recorded = recordCoverage(app)',
  readCoverage: "const records = readCoverage('.coverage')",
  CoverageRecords: 'const routes = (records: CoverageRecords) => Object.keys(records.routes)',
  RouteRecord: 'const hits = (record: RouteRecord) => record.requests',
  belowThresholds: 'const failed = belowThresholds(coverage, { routes: 100, statuses: 80 })',
  CoverageThresholds: 'const min: CoverageThresholds = { routes: 100, overall: 80 }',
  UncoveredItem:
    'const line = (item: UncoveredItem) => [item.route, item.metric, item.item].join(" ")',
  uncovered: 'for (const item of uncovered(coverage)) console.log(item.route, item.item)',
  MockNext: 'const next: MockNext = mockNext()',
  mockNext: 'const next = mockNext()',
  MockRequestOptions:
    "const options: MockRequestOptions = { method: 'POST', body: { name: 'Ada' } }",
  mockRequest: "const req = mockRequest({ method: 'POST', body: { name: 'Ada' } })",
  MockCall: 'const methods = (calls: MockCall[]) => calls.map((c) => c.method)',
  MockResponse: 'const res: MockResponse = mockResponse()',
  MockResponseOptions:
    "const options: MockResponseOptions = { req: mockRequest({ method: 'POST' }) }",
  MockResult: 'const status = (result: MockResult) => result.statusCode',
  mockResponse:
    'const res = mockResponse(); res.ok({ data: 1 }); console.log(res._result().statusCode)',
  Credential: "const credential: Credential = { user: 'admin', password: 'pw' }",
  FuzzRoutesOptions:
    "const options: FuzzRoutesOptions = { runs: 50, seed: 42, phases: ['examples', 'boundaries'] }",
  FuzzPhase: "const phase: FuzzPhase = 'stateful'",
  fuzzPhases: "console.log(fuzzPhases.join(', '))",
  Exchange: 'const status = (exchange: Exchange) => exchange.answer?.status',
  FuzzError: 'const failures = (err: FuzzError) => err.report.failures.length',
  FuzzedRoute: 'const requests = (route: FuzzedRoute) => route.requests',
  FuzzFailure: 'const why = (failure: FuzzFailure) => failure.invariant',
  FuzzReport: 'const failed = (r: FuzzReport) => r.failures.length > 0',
  FuzzRequest: 'const kind = (request: FuzzRequest) => request.kind',
  RequestKind: "const kind: RequestKind = 'hostile'",
  fuzzRoutes:
    "const result = await fuzzRoutes(app, { runs: 50, seed: 42, auth: 'Bearer test-token' })",
  HarOptions: "const options: HarOptions = { baseUrl: 'http://localhost:3000' }",
  harReport: 'const har = harReport(report)',
  jsonReport: 'const json = jsonReport(report)',
  readJsonReport: 'const { seed, failures } = readJsonReport(jsonReport(report))',
  junitReport: 'const xml = junitReport(report)',
  ReportOptions: "const options: ReportOptions = { secrets: { headers: ['x-api-key'] } }",

  // adapters
  valibotAdapter:
    'const body = valibotAdapter(v.object({ name: v.pipe(v.string(), v.minLength(2)) }))',
  yupAdapter: 'const body = yupAdapter(yup.object({ name: yup.string().required() }))',
  MessageMetaLogger:
    'const console2: MessageMetaLogger = { debug() {}, info() {}, warn() {}, error() {} }',
  WinstonLike: "const isWinston = (target: WinstonLike) => 'levels' in target",
  winstonAdapter:
    'app.use(shapeguard({ logger: { instance: winstonAdapter(winston.createLogger()) } }))',
  IORedisLike: 'const client: IORedisLike = { call: async () => null }',
  NodeRedisLike: 'const client: NodeRedisLike = { sendCommand: async () => null }',
  RedisRateLimitStore:
    'const store: RedisRateLimitStore = redisStore({ client: { call: async () => null } })',
  RedisStoreOptions:
    "const options: RedisStoreOptions = { client: { call: async () => null }, prefix: 'rl:' }",
  redisStore:
    "app.get('/search', validate({ rateLimit: { windowMs: 60_000, max: 100, store: redisStore({ client: { call: async () => null } }) } }), handler)",

  // shapeguard/openapi
  diffOpenAPI: "const breaking = diffOpenAPI(spec, spec).filter((f) => f.level === 'breaking')",
  DiffRule: "const rule: DiffRule = 'operation-removed'",
  diffRules: "console.log(diffRules['operation-removed'].help)",
  DiffFinding: 'const line = (f: DiffFinding) => [f.level, f.rule, f.pointer].join(" ")',
  DiffLevel: "const level: DiffLevel = 'warning'",
  DocsAssets: "const assets: DocsAssets = 'local'",
  DocsExports: "const exports: DocsExports = { postman: '/docs/postman.json' }",
  DocsLogo: "const logo: DocsLogo = { url: 'https://example.com/logo.png', altText: 'Shop' }",
  DocsTheme: "const theme: DocsTheme = 'dark'",
  DocsUi: "const ui: DocsUi = 'scalar'",
  ServeDocsOptions: "const options: ServeDocsOptions = { ui: 'redoc', assets: 'local' }",
  ServeSwaggerUIOptions: "const options: ServeSwaggerUIOptions = { theme: 'dark', persist: true }",
  ServeUiOptions: "const options: ServeUiOptions = { title: 'Shop API', assets: 'cdn' }",
  serveDocs: "app.use('/docs', serveDocs(spec, { ui: 'swagger', assets: 'local' }))",
  serveRedoc: "app.use('/docs', serveRedoc(spec))",
  serveScalar: "app.use('/docs', serveScalar(spec, { assets: 'local' }))",
  serveSwaggerUI: "app.use('/docs', serveSwaggerUI(spec, { theme: 'dark' }))",
  ClientExportOptions:
    "const options: ClientExportOptions = { seed: 'my-api', baseUrl: 'http://localhost:3000' }",
  BrunoCollection: 'const collection: BrunoCollection = toBruno(spec)',
  BrunoItem: 'const names = (items: BrunoItem[]) => items.map((i) => i.name)',
  toBruno: "const bruno = JSON.stringify(toBruno(spec, { seed: 'my-api' }), null, 2)",
  InsomniaExport: 'const exported: InsomniaExport = toInsomnia(spec)',
  InsomniaResource:
    "const requests = (r: InsomniaResource[]) => r.filter((x) => x._type === 'request')",
  toInsomnia: "const insomnia = JSON.stringify(toInsomnia(spec, { seed: 'my-api' }), null, 2)",
  PostmanAuth: "const auth: PostmanAuth = { type: 'bearer' }",
  PostmanCollection: 'const collection: PostmanCollection = toPostman(spec)',
  PostmanItem: "const isFolder = (item: PostmanItem) => 'item' in item",
  PostmanVariable:
    "const variable: PostmanVariable = { key: 'baseUrl', value: 'http://localhost:3000', type: 'string' }",
  toPostman: "const postman = JSON.stringify(toPostman(spec, { seed: 'my-api' }), null, 2)",

  // shapeguard/client
  readEvents:
    "for await (const { event, data } of readEvents('http://localhost:3000/ticks')) console.log(event, data)",
  readItems: "for await (const row of readItems('http://localhost:3000/rows')) console.log(row)",
  EventDataOfSchemas: 'type Data = EventDataOfSchemas<{ tick: typeof User }>',
  EventSchemas: 'const events: EventSchemas = { tick: User }',
  OutputOf: 'type Output = OutputOf<typeof User> // { id: number; name: string }',
  StandardSchema: 'const schema: StandardSchema<{ id: number; name: string }> = User',
  StreamError: "const code = (err: unknown) => (err instanceof StreamError ? err.code : 'UNKNOWN')",
  StreamErrorCode: "const code: StreamErrorCode = 'STREAM_DISCONNECTED'",
  EventsOf: 'type Events = EventsOf<{ events: { tick: typeof User } }>',
  FetchLike: 'const fetcher: FetchLike = (input, init) => fetch(input, init)',
  ItemOf: 'type Row = ItemOf<{ stream: typeof User }>',
  ReadEventsOptions: 'const options: ReadEventsOptions = { reconnect: { attempts: 3 } }',
  ReadItemsOptions: 'const options: ReadItemsOptions<{ id: number }> = { item: User }',
  ReconnectOptions:
    'const reconnect: ReconnectOptions = { attempts: 5, delay: 500, maxDelay: 10_000 }',
  StreamEvent:
    'const show = (e: StreamEvent<{ tick: { n: number } }>) => console.log(e.event, e.data.n)',
  StreamInput: "const input: StreamInput = new URL('http://localhost:3000/ticks')",
  StreamRequestOptions:
    "const options: StreamRequestOptions = { headers: { authorization: 'Bearer t' } }",
}
