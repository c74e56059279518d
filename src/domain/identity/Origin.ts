/**
 * Where a request came from, as the services record it (rate limits,
 * sessions, the audit log), and the tag the HTTP layer provides it under for
 * every request (`CurrentOrigin`, by the `RequestContext` middleware), so no
 * handler works it out again.
 */
import { Context } from "effect"

/** Where a request came from. */
export interface Origin {
  /** The client's address (past trusted proxies), or null when unknown. */
  readonly ipAddress: string | null
  readonly userAgent: string | null
  /** The trace of the request. */
  readonly traceId: string | null
}

/** The origin of the current request. */
export class CurrentOrigin extends Context.Tag("parley/CurrentOrigin")<CurrentOrigin, Origin>() {}
