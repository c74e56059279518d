/** Where a request came from, as identity services record it (rate limits, sessions, the audit log). */
export interface Origin {
  /** The client's address (past trusted proxies), or null when unknown. */
  readonly ipAddress: string | null
  readonly userAgent: string | null
  /** The trace of the request. */
  readonly traceId: string | null
}
