import type { Express } from 'express'
import { generateOpenAPI, type OpenAPIDocument } from 'shapeguard/openapi'

/**
 * The demo's OpenAPI 3.1 document, read from the routes the app registered with handle() (no
 * route is listed twice). Served at /docs/openapi.json; docs pages can take it from here too.
 * @param serverUrl where the demo listens: the docs pages' try-it-out and every exported
 * collection send their requests there; default `http://localhost:3000`
 */
export function demoOpenAPI(app: Express, serverUrl = 'http://localhost:3000'): OpenAPIDocument {
  return generateOpenAPI({
    title: 'shapeguard demo',
    version: '1.0.0',
    description: 'The demo API of shapeguard: users, a feed, a checkout.',
    license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    servers: [{ url: serverUrl, description: 'npm run demo' }],
    tags: [
      { name: 'users', description: 'The user store' },
      { name: 'shop', description: 'Feed and checkout' },
    ],
    app,
  })
}
