export { type ArbitraryMode, type ArbitraryOptions, arbitrary } from './arbitrary.js'
export type { FuzzRoutesOptions } from './fuzz-options.js'
export {
  type FuzzError,
  type FuzzedRoute,
  type FuzzFailure,
  type FuzzReport,
  fuzzRoutes,
} from './fuzz-routes.js'
export { type MockNext, mockNext } from './mock-next.js'
export { type MockRequestOptions, mockRequest } from './mock-request.js'
export {
  type MockCall,
  type MockResponse,
  type MockResponseOptions,
  type MockResult,
  mockResponse,
} from './mock-response.js'
export type { FuzzRequest, RequestKind } from './route-requests.js'
