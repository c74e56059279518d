import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { CurrentEmbedCaller } from "../../domain/deployments/EmbedCaller.js"
import { Forbidden, NotImplemented, RateLimited, Unauthenticated } from "../../domain/HttpErrors.js"

/**
 * Public runtime authentication: `Authorization: Bearer cdp_…`, the embed
 * token of one live deployment, with its allowed origins and rate limit.
 */
export class EmbedAuthentication extends HttpApiMiddleware.Tag<EmbedAuthentication>()(
  "parley/http/EmbedAuthentication",
  {
    provides: CurrentEmbedCaller,
    failure: Schema.Union(Unauthenticated, Forbidden, RateLimited, NotImplemented),
    security: {
      embedToken: HttpApiSecurity.bearer.pipe(
        HttpApiSecurity.annotate(OpenApi.Description, "A deployment's embed token, starting with cdp_"),
        HttpApiSecurity.annotate(OpenApi.Format, "cdp_…")
      )
    }
  }
) {}
