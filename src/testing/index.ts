export { type MockNext, mockNext } from './mock-next.js'
export { type MockRequestOptions, mockRequest } from './mock-request.js'
export {
  type MockCall,
  type MockResponse,
  type MockResponseOptions,
  type MockResult,
  mockResponse,
} from './mock-response.js'
