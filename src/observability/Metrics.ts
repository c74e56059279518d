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
