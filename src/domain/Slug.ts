import { Schema } from "effect"

/**
 * A lowercase, URL-safe name, unique per workspace: AI agents, chains,
 * workspaces and conversations are addressed by one.
 */
export const Slug = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9][a-z0-9-]{1,62}$/, {
    message: () => "a slug is 2 to 63 characters of a-z, 0-9 and '-', starting with a letter or digit"
  }),
  Schema.annotations({ identifier: "Slug", examples: ["support-bot" as never] })
)
