/**
 * The API reference page at `/docs`: a few hundred bytes of HTML that load
 * the reference's script (Scalar's standalone bundle) from `/docs/scalar.js`
 * and the API document from `/openapi.json`, both relative to the page (so a
 * proxy that serves Parley under a path prefix keeps working). The page used
 * to carry the 3.4 MB script and the document inline, so every visit
 * downloaded 4.3 MB; now both are separate, compressed and cached
 * (`ReferenceRoutes`). The page runs no inline script: its configuration is a
 * JSON data attribute, which the Content-Security-Policy does not need to
 * name.
 */

const escapeAttribute = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/** The page, for an API titled `title` and a script at `scriptUrl` (relative to the page). */
export const referencePage = (options: {
  readonly title: string
  readonly description: string
  readonly scriptUrl: string
}): string => {
  const configuration = {
    url: "openapi.json",
    // The reference's own fonts would come from fonts.scalar.com: /docs loads nothing from outside (its CSP).
    withDefaultFonts: false
  }
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeAttribute(options.title)}</title>
    <meta name="description" content="${escapeAttribute(options.description)}" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="data:," />
  </head>
  <body>
    <noscript>The API reference needs JavaScript. The API document itself is at <a href="openapi.json">openapi.json</a>.</noscript>
    <script id="api-reference" type="application/json" data-configuration="${
    escapeAttribute(JSON.stringify(configuration))
  }"></script>
    <script src="${escapeAttribute(options.scriptUrl)}"></script>
  </body>
</html>
`
}
