// Express 4 is installed under the npm alias `express4`; its API is typed by @types/express.
declare module 'express4' {
  import express from 'express'
  export default express
}
