import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Liveness, Readiness } from "../../domain/Health.js"
import { NotReady } from "../../domain/HttpErrors.js"
import { MetricsAuth } from "../middleware/MetricsAuth.js"

/** The Prometheus text exposition format, version 0.0.4. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

/** Liveness, readiness and metrics: outside `/v1`, for orchestrators and scrapers. */
export class HealthApi extends HttpApiGroup.make("health")
  .add(
    HttpApiEndpoint.get("live", "/health/live")
      .addSuccess(Liveness)
      .annotate(OpenApi.Summary, "Liveness: the process is up")
  )
  .add(
    HttpApiEndpoint.get("ready", "/health/ready")
      .addSuccess(Readiness)
      .addError(NotReady)
      .annotate(OpenApi.Summary, "Readiness: the database answers and migrations are done")
  )
  .add(
    HttpApiEndpoint.get("metrics", "/metrics")
      .addSuccess(HttpApiSchema.Text({ contentType: PROMETHEUS_CONTENT_TYPE }))
      .middleware(MetricsAuth)
      .annotate(OpenApi.Summary, "Prometheus metrics")
  )
  .annotate(OpenApi.Title, "Health")
  .annotate(
    OpenApi.Description,
    "Liveness, readiness and Prometheus metrics, outside /v1, for orchestrators and scrapers."
  )
{}
