/**
 * The per-request facts every handler may need, provided once for every
 * route: where the request came from (`CurrentOrigin`: the client's address
 * past trusted proxies, its user agent, the trace). It never fails and adds
 * nothing to the API document. The principal is the `Authentication`
 * middleware's to provide, on the routes that authenticate.
 */
import { HttpApiMiddleware } from "@effect/platform"
import { CurrentOrigin } from "../../domain/identity/Origin.js"

export class RequestContext extends HttpApiMiddleware.Tag<RequestContext>()("parley/http/RequestContext", {
  provides: CurrentOrigin
}) {}
