import type { Request } from 'express'

/** A request header's value when it is present and not empty (Node lowercases the names). */
export function headerValue(req: Request, lowerName: string): string | undefined {
  const value = req.headers[lowerName]
  return typeof value === 'string' && value !== '' ? value : undefined
}
