import type { DocsTheme } from './create-docs-options.js'

// Swagger UI 5.17 has no dark mode of its own: a dark palette, with each operation bordered in its
// method's colour so the list stays readable.
const DARK = `
body,.swagger-ui{background:#0f1318;color:#d7dde4}
.swagger-ui .info .title,.swagger-ui .info p,.swagger-ui .info li,.swagger-ui .info a,
.swagger-ui .opblock-tag,.swagger-ui .opblock .opblock-summary-description,
.swagger-ui .opblock .opblock-summary-path,.swagger-ui .opblock .opblock-summary-operation-id,
.swagger-ui .opblock-description-wrapper p,.swagger-ui .opblock-title_normal,
.swagger-ui table thead tr td,.swagger-ui table thead tr th,.swagger-ui .parameter__name,
.swagger-ui .parameter__type,.swagger-ui .parameter__in,.swagger-ui .response-col_status,
.swagger-ui .response-col_links,.swagger-ui .responses-inner h4,.swagger-ui .responses-inner h5,
.swagger-ui .tab li,.swagger-ui .model-title,.swagger-ui .model,.swagger-ui section.models h4,
.swagger-ui .scheme-container .schemes>label,.swagger-ui label,.swagger-ui .btn{color:#d7dde4}
.swagger-ui .scheme-container,.swagger-ui .opblock .opblock-section-header{background:#161b22;box-shadow:none}
.swagger-ui section.models,.swagger-ui section.models .model-container{background:#161b22;border-color:#2d333b}
.swagger-ui .opblock{background:#161b22;border-width:1px 1px 1px 4px}
.swagger-ui .opblock.opblock-get{border-color:#61affe}
.swagger-ui .opblock.opblock-post{border-color:#49cc90}
.swagger-ui .opblock.opblock-put{border-color:#fca130}
.swagger-ui .opblock.opblock-patch{border-color:#50e3c2}
.swagger-ui .opblock.opblock-delete{border-color:#f93e3e}
.swagger-ui .opblock.opblock-head,.swagger-ui .opblock.opblock-options{border-color:#9012fe}
.swagger-ui input,.swagger-ui select,.swagger-ui textarea,.swagger-ui .dialog-ux .modal-ux{background:#0f1318;color:#d7dde4;border-color:#2d333b}
.swagger-ui .dialog-ux .modal-ux-header h3,.swagger-ui .dialog-ux .modal-ux-content p,.swagger-ui .dialog-ux .modal-ux-content h4{color:#d7dde4}
.swagger-ui svg:not(:root){fill:#d7dde4}
`

/** The CSS a theme adds to Swagger UI's own. */
export function swaggerThemeCss(theme: DocsTheme): string {
  if (theme === 'light') return ''
  if (theme === 'dark') return DARK
  return `@media (prefers-color-scheme: dark){${DARK}}`
}
