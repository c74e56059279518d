/**
 * The contract bound to its handlers and middleware. Each group is either
 * built or answers 501 through `notImplementedGroup`, so this file shows at a
 * glance how far Parley has come.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Layer } from "effect"
import { Api } from "./Api.js"
import { HealthHttpLive } from "./health/HealthHttp.js"
import { MetricsAuthLive } from "./middleware/MetricsAuthLive.js"
import {
  AuthenticationNotBuilt,
  ChannelSignatureNotBuilt,
  EmbedAuthenticationNotBuilt,
  IngressSignatureNotBuilt
} from "./middleware/SecurityNotBuilt.js"
import { notImplementedGroup } from "./NotImplementedHttp.js"

const Groups = Layer.mergeAll(
  HealthHttpLive,
  notImplementedGroup("assistants")
)

const Middleware = Layer.mergeAll(
  MetricsAuthLive,
  AuthenticationNotBuilt,
  EmbedAuthenticationNotBuilt,
  IngressSignatureNotBuilt,
  ChannelSignatureNotBuilt
)

export const ApiLive = HttpApiBuilder.api(Api).pipe(Layer.provide(Groups), Layer.provide(Middleware))
