import { Schema } from "effect"
import { HttpsUrl } from "../Url.js"
import { AllowedOrigins } from "../WebOrigin.js"
import { HexColor, WidgetPosition } from "./EmbedSettings.js"
import { AiAgentVersionNumber } from "./Ids.js"
import { PublicTokenHint } from "./PublicToken.js"

/** Where the public token goes in `turnUrl` and `snippet`: the token is stored hashed, so the server cannot fill it in. */
export const PUBLIC_TOKEN_PLACEHOLDER = "{{PUBLIC_TOKEN}}"

/** The widget settings as the live widget applies them: the embed settings resolved, with the live version's greeting and prompts. */
export const WidgetSettings = Schema.Struct({
  /** The embed title, or the agent's name. */
  title: Schema.String,
  primaryColor: HexColor,
  position: WidgetPosition,
  avatarUrl: Schema.NullOr(HttpsUrl),
  allowedOrigins: AllowedOrigins,
  greeting: Schema.NullOr(Schema.String),
  suggestedPrompts: Schema.Array(Schema.String)
}).annotations({ identifier: "WidgetSettings" })

/**
 * How to put an agent on a web page: a snippet that loads the widget, the
 * public turn URL for direct calls, and the widget's settings. Both carry
 * `{{PUBLIC_TOKEN}}` where the token goes: it is shown once, at first publish
 * or rotation, and the UI that showed it substitutes it.
 */
export class AiAgentEmbed extends Schema.Class<AiAgentEmbed>("AiAgentEmbed")({
  /** Whether a version is live; before the first publish the snippet would answer 404s. */
  live: Schema.Boolean,
  liveVersion: Schema.NullOr(AiAgentVersionNumber),
  publicTokenHint: Schema.NullOr(PublicTokenHint),
  tokenPlaceholder: Schema.Literal(PUBLIC_TOKEN_PLACEHOLDER),
  /** `https://<host>/v1/public/ai-agents/{{PUBLIC_TOKEN}}/turn`. */
  turnUrl: Schema.String,
  /** The widget's script. */
  scriptUrl: Schema.String,
  /** HTML to paste before `</body>`: a `<script>` tag with the token and settings as data attributes. */
  snippet: Schema.String,
  widget: WidgetSettings
}) {}
