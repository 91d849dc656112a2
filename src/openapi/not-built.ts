// The OpenAPI subpath is not built yet. Each name it will export exists and throws when called,
// so that an import compiles and the first call says plainly what is missing.
function notBuilt(name: string): never {
  throw new Error(`shapeguard/openapi: ${name}() is not implemented yet`)
}

/** Not implemented yet: always throws. */
export function generateOpenAPI(..._args: unknown[]): never {
  return notBuilt('generateOpenAPI')
}

/** Not implemented yet: always throws. */
export function createDocs(..._args: unknown[]): never {
  return notBuilt('createDocs')
}

/** Not implemented yet: always throws. */
export function serveScalar(..._args: unknown[]): never {
  return notBuilt('serveScalar')
}

/** Not implemented yet: always throws. */
export function serveSwaggerUI(..._args: unknown[]): never {
  return notBuilt('serveSwaggerUI')
}

/** Not implemented yet: always throws. */
export function serveRedoc(..._args: unknown[]): never {
  return notBuilt('serveRedoc')
}

/** Not implemented yet: always throws. */
export function serveDocs(..._args: unknown[]): never {
  return notBuilt('serveDocs')
}

/** Not implemented yet: always throws. */
export function toPostman(..._args: unknown[]): never {
  return notBuilt('toPostman')
}

/** Not implemented yet: always throws. */
export function toInsomnia(..._args: unknown[]): never {
  return notBuilt('toInsomnia')
}

/** Not implemented yet: always throws. */
export function toBruno(..._args: unknown[]): never {
  return notBuilt('toBruno')
}
