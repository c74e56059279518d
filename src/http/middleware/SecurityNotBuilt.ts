/**
 * The security schemes whose areas are not built yet. Each answers a typed
 * 501 naming itself rather than pretending to check anyone; the issue that
 * builds the area replaces its layer here with the real one.
 */
import { Effect, Layer } from "effect"
import { NotImplemented } from "../../domain/HttpErrors.js"
import { ChannelSignature } from "./ChannelSignature.js"

const notBuilt = (what: string) => () => Effect.fail(NotImplemented.forRoute(what))

export const ChannelSignatureNotBuilt = Layer.succeed(ChannelSignature, {
  twilioSignature: notBuilt("channel signature verification"),
  zendeskSignature: notBuilt("channel signature verification"),
  webhookSignature: notBuilt("channel signature verification")
})
