/**
 * `GET /embed/v1/widget.js`: the web chat widget a website adds with one
 * `<script>` tag. Served beside the contract (it is not part of the /v1 API),
 * without authentication: the embed token travels in the tag's `data-token`.
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { ifNoneMatchHits, loadWidgetScript, WIDGET_CACHE_CONTROL, WIDGET_PATH } from "../../embed/WidgetScript.js"

/** The widget's route, as the route table lists it (for 405 answers). */
export const widgetRoute = { method: "GET", path: WIDGET_PATH, group: "embed", name: "widget" } as const

/** Adds the widget's route to the API's router. */
export const WidgetRouteLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const widget = yield* loadWidgetScript
    const headers = { etag: widget.etag, "cache-control": WIDGET_CACHE_CONTROL }
    yield* router.get(
      WIDGET_PATH,
      Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
        ifNoneMatchHits(request.headers["if-none-match"], widget.etag)
          ? HttpServerResponse.empty({ status: 304, headers })
          : HttpServerResponse.text(widget.source, { contentType: "text/javascript; charset=utf-8", headers }))
    )
  })
)
