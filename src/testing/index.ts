export { type ArbitraryMode, type ArbitraryOptions, arbitrary } from './arbitrary/arbitrary.js'
export type { ItemKind } from './coverage/coverage-items.js'
export {
  type CoverageCount,
  type CoverageMetric,
  type CoverageReport,
  type CoverageReportOptions,
  type Covered,
  coverageMetrics,
  coverageReport,
  type RouteCoverage,
} from './coverage/coverage-report.js'
export { coverageTable } from './coverage/coverage-table.js'
export {
  type Coverage,
  type RecordCoverageOptions,
  recordCoverage,
} from './coverage/record-coverage.js'
export { readCoverage } from './coverage/record-file.js'
export type { CoverageRecords, RouteRecord } from './coverage/records.js'
export { belowThresholds, type CoverageThresholds } from './coverage/thresholds.js'
export { type UncoveredItem, uncovered } from './coverage/uncovered.js'
export { type MockNext, mockNext } from './doubles/mock-next.js'
export { type MockRequestOptions, mockRequest } from './doubles/mock-request.js'
export {
  type MockCall,
  type MockResponse,
  type MockResponseOptions,
  type MockResult,
  mockResponse,
} from './doubles/mock-response.js'
export type { Credential } from './fuzz/credentials.js'
export type { FuzzRoutesOptions } from './fuzz/fuzz-options.js'
export { type FuzzPhase, fuzzPhases } from './fuzz/fuzz-phase.js'
export type {
  Exchange,
  FuzzError,
  FuzzedRoute,
  FuzzFailure,
  FuzzReport,
} from './fuzz/fuzz-report.js'
export type { FuzzRequest, RequestKind } from './fuzz/fuzz-request.js'
export { fuzzRoutes } from './fuzz/fuzz-routes.js'
export { type HarOptions, harReport } from './fuzz/reports/har.js'
export { jsonReport, readJsonReport } from './fuzz/reports/json.js'
export { junitReport } from './fuzz/reports/junit.js'
export type { ReportOptions } from './fuzz/reports/mask.js'
