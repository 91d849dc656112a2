import { escapeHtml } from './escape.js'

// The page Swagger UI's OAuth2 sign-in returns to (its popup), in place of swagger-ui-dist's
// oauth2-redirect.html: the same hand-over to the opener, but the parameters are read with
// URLSearchParams instead of being pasted into a JSON string, and the script is hashed for the CSP.
const SCRIPT = `
(function () {
var oauth2 = window.opener && window.opener.swaggerUIRedirectOauth2;
if (!oauth2) return;
var raw = /code|token|error/.test(location.hash)
  ? location.hash.substring(1).replace("?", "&")
  : location.search.substring(1);
var qp = {};
new URLSearchParams(raw).forEach(function (value, key) { qp[key] = value; });
var isValid = qp.state === oauth2.state;
var flow = oauth2.auth.schema.get("flow");
var codeFlow = flow === "accessCode" || flow === "authorizationCode" || flow === "authorization_code";
if (codeFlow && !oauth2.auth.code) {
  if (!isValid) {
    oauth2.errCb({ authId: oauth2.auth.name, source: "auth", level: "warning",
      message: "Authorization may be unsafe: the state sent was not returned by the auth server." });
  }
  if (qp.code) {
    delete oauth2.state;
    oauth2.auth.code = qp.code;
    oauth2.callback({ auth: oauth2.auth, redirectUrl: oauth2.redirectUrl });
  } else {
    oauth2.errCb({ authId: oauth2.auth.name, source: "auth", level: "error",
      message: qp.error
        ? "[" + qp.error + "]: " + (qp.error_description || "no access code received from the server.")
        : "[Authorization failed]: no access code received from the server." });
  }
} else {
  oauth2.callback({ auth: oauth2.auth, token: qp, isValid: isValid, redirectUrl: oauth2.redirectUrl });
}
window.close();
})();
`

/** The redirect page's path below the docs mount. */
export const OAUTH2_REDIRECT_PATH = '/oauth2-redirect.html'

/** The redirect page and the one inline script its CSP allows. */
export const oauth2Redirect = {
  script: SCRIPT,
  html:
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="referrer" content="no-referrer">\n' +
    `<title>${escapeHtml('Signing in…')}</title>\n</head>\n<body>\n<script>${SCRIPT}</script>\n</body>\n</html>\n`,
} as const
