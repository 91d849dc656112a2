import type { Server } from 'node:http'
import type { CoverageReport, FuzzReport } from 'shapeguard/testing'
import { z } from 'zod'

// What the one-line examples of docs/reference/api.md use without defining (compiled by
// test/readme/reference-api.test.ts, never run): the README's givens and a few values of the
// application's own.
export { app, handler, users } from './givens.js'

/** The application's schemas. */
export const User = z.object({ id: z.number(), name: z.string() })
export const CreateUser = z.object({ name: z.string() })

/** An OpenAPI document, as generateOpenAPI() or a file gives it. */
export declare const spec: { openapi: string; info: object; paths: object }
/** A fuzz run's report, and a coverage report. */
export declare const report: FuzzReport
export declare const coverage: CoverageReport
/** A listening server. */
export declare const server: Server
