export {
  createDocs,
  generateOpenAPI,
  serveDocs,
  serveRedoc,
  serveScalar,
  serveSwaggerUI,
  toBruno,
  toInsomnia,
  toPostman,
} from './not-built.js'
