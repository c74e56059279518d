import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Unauthenticated } from "../../domain/HttpErrors.js"

/** `/metrics` takes `Authorization: Bearer <METRICS_TOKEN>` when a token is configured (always, in production). */
export class MetricsAuth extends HttpApiMiddleware.Tag<MetricsAuth>()("parley/http/MetricsAuth", {
  failure: Unauthenticated,
  security: {
    metricsToken: HttpApiSecurity.bearer.pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "The METRICS_TOKEN of the deployment")
    )
  }
}) {}
