export { yupAdapter } from './yup-adapter.js'
