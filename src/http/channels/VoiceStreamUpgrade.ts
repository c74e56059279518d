import type { HttpServerRequest } from "@effect/platform"
import { UpgradeRequired } from "../../domain/channels/VoiceGateway.js"
import { jsonError } from "../JsonError.js"
import type { ProtocolCheck } from "../NotImplementedHttp.js"

const wantsWebSocket = (request: HttpServerRequest.HttpServerRequest) =>
  request.headers["upgrade"]?.toLowerCase() === "websocket"

/** The voice media stream is a WebSocket: a plain GET is told so (426, `Upgrade: websocket`). */
export const requireWebSocketUpgrade: ProtocolCheck = (request, notBuilt) =>
  wantsWebSocket(request)
    ? notBuilt
    : jsonError(
      UpgradeRequired,
      new UpgradeRequired({ upgrade: "websocket", message: "This route speaks WebSocket: send Upgrade: websocket" }),
      { upgrade: "websocket", connection: "Upgrade" }
    )
