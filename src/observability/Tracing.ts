/**
 * Trace export: with `OTEL_EXPORTER_OTLP_ENDPOINT` set, every span (each
 * request's server span and everything under it) is sent to that collector
 * over OTLP/HTTP (JSON) at `<endpoint>/v1/traces`. Without it, spans still
 * exist (their ids are the `x-trace-id` of responses) but go nowhere.
 */
import * as OtlpSerialization from "@effect/opentelemetry/OtlpSerialization"
import * as OtlpTracer from "@effect/opentelemetry/OtlpTracer"
import { NodeHttpClient } from "@effect/platform-node"
import { Effect, Layer, Option } from "effect"
import { OtlpEndpoint } from "../config/Settings.js"
import { version } from "../Version.js"

export const TracingLive = Layer.unwrapEffect(
  Effect.map(
    OtlpEndpoint,
    Option.match({
      onNone: () => Layer.empty,
      onSome: (endpoint) =>
        OtlpTracer.layer({
          url: `${endpoint.replace(/\/+$/, "")}/v1/traces`,
          resource: { serviceName: "parley", serviceVersion: version },
          exportInterval: "2 seconds"
        }).pipe(Layer.provide([OtlpSerialization.layerJson, NodeHttpClient.layerUndici]))
    })
  )
)
