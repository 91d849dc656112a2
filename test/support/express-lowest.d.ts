// The lowest Express 4 is installed under the npm alias `express-lowest` (test/support/peers.ts);
// its API is typed by @types/express, as `express4`'s is (test/e2e/express4.d.ts).
declare module 'express-lowest' {
  import express from 'express'
  export default express
}
