/**
 * Web origins, as the public routes check them against a request's `Origin`
 * header: a deployment's embed token and an AI agent's public widget use the
 * same rule, so one list means the same thing on both.
 */
import { Schema } from "effect"

/** A web origin (`https://shop.example.com`, `http://localhost:3000`), without path or trailing slash. */
export const WebOrigin = Schema.String.pipe(
  Schema.pattern(/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/),
  Schema.maxLength(255),
  Schema.annotations({
    identifier: "WebOrigin",
    description: "scheme://host[:port]",
    examples: ["https://shop.example.com", "http://localhost:3000"]
  })
)

/** A page origin allowed to call a public route, or `*` for any. */
export const AllowedOrigin = Schema.Union(WebOrigin, Schema.Literal("*")).annotations({ identifier: "AllowedOrigin" })

/** The origins whose pages may call a public route: 1 to 50, and `["*"]` allows any. */
export const AllowedOrigins = Schema.Array(AllowedOrigin).pipe(
  Schema.minItems(1),
  Schema.maxItems(50),
  Schema.annotations({ identifier: "AllowedOrigins" })
)
export type AllowedOrigins = typeof AllowedOrigins.Type
