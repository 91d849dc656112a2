import { describe, expect, it } from 'vitest'
import { multipartClientError } from '../../../src/runtime/core/multipart-errors.js'

const multerError = (code: string, field?: string) =>
  Object.assign(new Error('multer says'), { name: 'MulterError', code, field })

describe('multipartClientError', () => {
  it('maps every multer code to a 4xx in our words', () => {
    expect(multipartClientError(multerError('LIMIT_FILE_SIZE', 'avatar'))).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'File is too large',
      field: 'avatar',
    })
    expect(multipartClientError(multerError('LIMIT_UNEXPECTED_FILE', 'x'))?.code).toBe(
      'BAD_REQUEST',
    )
    expect(multipartClientError(multerError('NOT_A_CODE'))).toBeUndefined()
  })

  it('repeats only a short field name of form characters', () => {
    expect(multipartClientError(multerError('LIMIT_FILE_SIZE', 'a\r\nb'))?.field).toBeUndefined()
    expect(multipartClientError(multerError('LIMIT_FILE_SIZE', 'a'.repeat(65)))?.field).toBe(
      undefined,
    )
    expect(multipartClientError(multerError('LIMIT_FILE_SIZE', 'photos[0]'))?.field).toBe(
      'photos[0]',
    )
  })

  it("knows busboy's plain errors by their fixed messages, never quoting the request", () => {
    expect(multipartClientError(new Error('Unexpected end of form'))?.code).toBe('BAD_REQUEST')
    const unsupported = multipartClientError(new Error('Unsupported content type: text/<evil>'))
    expect(unsupported?.code).toBe('INVALID_CONTENT_TYPE')
    expect(unsupported?.message).not.toContain('evil')
  })

  it('leaves a subclass of Error with the same message, and any other error, alone', () => {
    class DbError extends Error {}
    expect(multipartClientError(new DbError('Unexpected end of form'))).toBeUndefined()
    expect(multipartClientError(new Error('database down'))).toBeUndefined()
  })
})
