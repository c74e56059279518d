/**
 * Absolute web URLs a client gives Parley (a webhook, a page, a document, a
 * provider endpoint). Credentials never ride in a URL (`user:pass@host`):
 * they belong in the vault, so the authority refuses an `@`.
 */
import { Schema } from "effect"

/** An absolute http(s) URL without credentials, at most 2,048 characters. */
export const HttpUrl = Schema.String.pipe(
  Schema.maxLength(2048),
  Schema.pattern(/^https?:\/\/[^\s@/?#]+([/?#]\S*)?$/, {
    message: () => "an absolute http(s) URL without credentials"
  }),
  Schema.annotations({ identifier: "HttpUrl", examples: ["https://example.com/path" as never] })
)

/** An absolute https URL without credentials, at most 2,048 characters: what a browser or a webhook sender fetches. */
export const HttpsUrl = Schema.String.pipe(
  Schema.maxLength(2048),
  Schema.pattern(/^https:\/\/[^\s@/?#]+([/?#]\S*)?$/, {
    message: () => "an absolute https URL without credentials"
  }),
  Schema.annotations({ identifier: "HttpsUrl", examples: ["https://example.com/path" as never] })
)
