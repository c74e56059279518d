import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  ChannelConnectionCreate,
  ChannelConnectionJson,
  ChannelConnectionListParams,
  ChannelConnectionPatch
} from "../../domain/channels/ChannelConnection.js"
import {
  ChannelAddressTaken,
  ChannelConnectionNameTaken,
  ChannelConnectionNotFound,
  ChannelKindMismatch,
  ChannelSecretsMissing,
  ChannelTargetUnavailable
} from "../../domain/channels/ChannelErrors.js"
import { ChannelConnectionId } from "../../domain/channels/Ids.js"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import { Page } from "../../domain/Pagination.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const connectionId = HttpApiSchema.param("connection_id", ChannelConnectionId)

/** Channel connections (`/v1/channels`): providers bound to an Assistant deployment or a live AI agent. */
export class ChannelsApi extends HttpApiGroup.make("channels")
  .add(
    HttpApiEndpoint.get("list", "/channels")
      .setUrlParams(ChannelConnectionListParams)
      .addSuccess(Page(ChannelConnectionJson))
      .annotate(OpenApi.Summary, "List channel connections")
      .pipe(requires("channel.read"))
  )
  .add(
    HttpApiEndpoint.post("create", "/channels")
      .setPayload(ChannelConnectionCreate)
      .addSuccess(ChannelConnectionJson, { status: 201 })
      .addError(ChannelConnectionNameTaken)
      .addError(ChannelTargetUnavailable)
      .addError(ChannelSecretsMissing)
      .addError(ChannelAddressTaken)
      .addError(ValidationFailed)
      .annotate(OpenApi.Summary, "Connect a provider")
      .annotate(
        OpenApi.Description,
        "Credentials name vault secrets; their values never pass through this API. The answer's `endpoints` "
          + "are the URLs to configure at the provider. A Twilio connection needs at least one number, and "
          + "`settings.voice` when it has voice numbers (`ValidationFailed` otherwise)."
      )
      .pipe(requires("channel.write"))
  )
  .add(
    HttpApiEndpoint.get("get")`/channels/${connectionId}`
      .addSuccess(ChannelConnectionJson)
      .addError(ChannelConnectionNotFound)
      .annotate(OpenApi.Summary, "Read a channel connection, with its status and last error")
      .pipe(requires("channel.read"))
  )
  .add(
    HttpApiEndpoint.patch("update")`/channels/${connectionId}`
      .setPayload(ChannelConnectionPatch)
      .addSuccess(ChannelConnectionJson)
      .addError(ChannelConnectionNotFound)
      .addError(ChannelKindMismatch)
      .addError(ChannelConnectionNameTaken)
      .addError(ChannelTargetUnavailable)
      .addError(ChannelSecretsMissing)
      .addError(ChannelAddressTaken)
      .addError(ValidationFailed)
      .annotate(OpenApi.Summary, "Change a channel connection")
      .annotate(
        OpenApi.Description,
        "`kind` is required and must be the connection's own; `credentials` and `settings`, when sent, replace "
          + "the whole object. `enabled: true` on a connection in `error` retries it."
      )
      .pipe(requires("channel.write"))
  )
  .add(
    HttpApiEndpoint.del("delete")`/channels/${connectionId}`
      .addError(ChannelConnectionNotFound)
      .annotate(OpenApi.Summary, "Delete a channel connection; its provider traffic is refused from then on")
      .pipe(requires("channel.write"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Channels")
  .annotate(
    OpenApi.Description,
    "Connections to messaging, voice, helpdesk, contact-centre and IT service-management providers, and "
      + "generic webhooks, each answering through an Assistant deployment or a live AI agent."
  )
{}
