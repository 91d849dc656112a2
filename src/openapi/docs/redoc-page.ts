import type { PageParts } from './docs-page.js'
import { unlessLoaded } from './load-failure.js'
import { pageTitle } from './swagger-page.js'

// Redoc 2's sidebar footer always shows a logo from cdn.redoc.ly: a request to a third party for
// every reader, and a CSP violation. That one image gets an empty data: image instead.
// Redoc's DOMPurify keeps a <style> and style="…" of the spec's Markdown; under the automatic
// policy only style elements with the page's nonce apply (styleNonce). Redoc's own `nonce` option
// comes too late for the style element its bundle makes as it loads (perfect-scrollbar's CSS), so
// every style element a script creates gets the nonce here; one parsed from Markdown never does.
const BOOTSTRAP = `
var config = JSON.parse(document.getElementById("shapeguard-docs-config").textContent);
(function () {
var setAttribute = Element.prototype.setAttribute;
var logo = "https://cdn.redoc.ly/redoc/logo-mini.svg";
var blank = "data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E";
Element.prototype.setAttribute = function (name, value) {
  return setAttribute.call(this, name, name === "src" && value === logo ? blank : value);
};
var src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
Object.defineProperty(HTMLImageElement.prototype, "src", {
  configurable: true,
  enumerable: src.enumerable,
  get: src.get,
  set: function (value) { src.set.call(this, value === logo ? blank : value); }
});
if (!config.nonce) return;
var createElement = Document.prototype.createElement;
Document.prototype.createElement = function (name) {
  var element = createElement.apply(this, arguments);
  if (String(name).toLowerCase() === "style") element.nonce = config.nonce;
  return element;
};
})();
document.body.style.margin = "0";
document.addEventListener("DOMContentLoaded", function () {
${unlessLoaded('Redoc')}Redoc.init(config.specUrl, config.ui.options, document.getElementById("redoc"));
});
`

/** Redoc's page (Redoc 2's standalone bundle, a classic script). */
export function redocPage(spec: object, title: string | undefined): PageParts {
  return {
    ui: 'redoc',
    title: pageTitle(title, spec, 'API reference'),
    // No <style> of its own: the margin is set by the bootstrap (CSSOM), under the nonce policy.
    head: '',
    body: '<div id="redoc"></div>',
    // sanitize: Redoc 2 renders the spec's Markdown as raw HTML unless told to clean it; its
    // DOMPurify keeps <style> and style="…", which the nonce policy (styleNonce) then refuses.
    config: { options: { sanitize: true, expandResponses: '200,201', jsonSampleExpandLevel: 2 } },
    bootstrap: BOOTSTRAP,
    styleNonce: true,
  }
}
