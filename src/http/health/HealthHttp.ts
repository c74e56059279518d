import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { MetricsExposition } from "../../observability/MetricsExposition.js"
import { Readiness } from "../../services/Readiness.js"
import { Api } from "../Api.js"

/** The health group's handlers: liveness, readiness and the Prometheus exposition. */
export const HealthHttpLive = HttpApiBuilder.group(Api, "health", (handlers) =>
  Effect.gen(function*() {
    const readiness = yield* Readiness
    const metrics = yield* MetricsExposition
    return handlers
      .handle("live", () => Effect.sync(() => ({ status: "ok" as const, uptimeSeconds: Math.round(process.uptime()) })))
      .handle("ready", () => readiness.check)
      .handle("metrics", () => metrics.render)
  }))
