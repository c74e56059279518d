/**
 * The metrics Parley records. Labels are bounded: routes are the declared
 * templates (`/v1/agents/:agent_id`), never raw paths.
 */
import { Metric, MetricBoundaries } from "effect"

/** Requests answered, by method, route template and status. */
export const httpRequests = Metric.counter("parley_http_requests_total", {
  description: "HTTP requests answered, by method, route and status",
  incremental: true
})

/** Time to answer, by method, route template and status. */
export const httpRequestDuration = Metric.histogram(
  "parley_http_request_duration_seconds",
  MetricBoundaries.fromIterable([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]),
  "HTTP request duration in seconds, by method, route and status"
)

/** Requests being handled right now. */
export const httpRequestsInFlight = Metric.gauge("parley_http_requests_in_flight", {
  description: "HTTP requests being handled"
})

/** Database connections, by state (`total`, `idle`, `waiting`). */
export const databaseConnections = Metric.gauge("parley_db_pool_connections", {
  description: "Database pool connections by state (total, idle, waiting clients)"
})

/** Work admitted past a node's bound, by gate (`turns`, `requests`). */
export const admissionAdmitted = Metric.counter("parley_admission_admitted_total", {
  description: "Work admitted by a node's admission control, by gate (turns, requests)",
  incremental: true
})

/** Work refused at once with 503 Overloaded because the gate was full, by gate. */
export const admissionRejected = Metric.counter("parley_admission_rejected_total", {
  description: "Work refused with 503 Overloaded because the node's bound was reached, by gate (turns, requests)",
  incremental: true
})

/** Work admitted and not yet finished, by gate. */
export const admissionInFlight = Metric.gauge("parley_admission_in_flight", {
  description: "Work admitted and still running, by gate (turns, requests)"
})

/** Each gate's bound (0: none), so a dashboard can show how full a node is. */
export const admissionLimit = Metric.gauge("parley_admission_limit", {
  description: "The most work a gate admits at once (0: no bound), by gate (turns, requests)"
})

/** 1 while the node reports itself saturated (readiness answers 503), else 0. */
export const admissionSaturated = Metric.gauge("parley_admission_saturated", {
  description: "1 while the node is saturated and /health/ready answers 503, else 0"
})

/** Embedding calls that failed, by stage (`index`: a document's chunks, `query`: a search's query). */
export const knowledgeEmbeddingFailures = Metric.counter("parley_knowledge_embedding_failures_total", {
  description: "Embeddings provider calls for AI-agent knowledge that failed, by stage (index, query)",
  incremental: true
})
