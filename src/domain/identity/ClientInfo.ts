import { Schema } from "effect"

/**
 * The network address a request came from (IPv4 or IPv6 text form), as the
 * server saw it after trusted proxies; recorded on sessions and audit records.
 */
export const IpAddress = Schema.String.pipe(
  Schema.pattern(/^[0-9A-Fa-f.:]{2,45}$/),
  Schema.annotations({ identifier: "IpAddress", description: "An IPv4 or IPv6 address", examples: ["203.0.113.7"] })
)

/** The `User-Agent` header of a request, cut to 512 characters. */
export const UserAgent = Schema.String.pipe(
  Schema.maxLength(512),
  Schema.annotations({ identifier: "UserAgent", description: "The client's User-Agent header, at most 512 characters" })
)
