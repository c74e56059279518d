import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Page } from "../../domain/Pagination.js"
import { SecretId } from "../../domain/workspace/Ids.js"
import { ForceDeleteParams } from "../../domain/workspace/ResourceRef.js"
import {
  Secret,
  SecretCreate,
  SecretInUse,
  SecretListParams,
  SecretNameTaken,
  SecretNotFound,
  SecretRotate,
  SecretVersionConflict
} from "../../domain/workspace/Secret.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const secretId = HttpApiSchema.param("secret_id", SecretId)

/** The workspace's credential vault (`/v1/secrets`): values go in, never out. */
export class SecretsApi extends HttpApiGroup.make("secrets")
  .add(
    HttpApiEndpoint.get("list", "/secrets")
      .setUrlParams(SecretListParams)
      .addSuccess(Page(Secret.json))
      .annotate(OpenApi.Summary, "List secrets: names, versions, hints and usage, never values")
      .pipe(requires("secret.read"))
  )
  .add(
    HttpApiEndpoint.post("create", "/secrets")
      .setPayload(SecretCreate)
      .addSuccess(Secret.json, { status: 201 })
      .addError(SecretNameTaken)
      .annotate(OpenApi.Summary, "Store a secret")
      .pipe(requires("secret.write"))
  )
  .add(
    HttpApiEndpoint.put("rotate")`/secrets/${secretId}/value`
      .setPayload(SecretRotate)
      .addSuccess(Secret.json)
      .addError(SecretNotFound)
      .addError(SecretVersionConflict)
      .annotate(OpenApi.Summary, "Rotate a secret: store a new value as the next version")
      .pipe(requires("secret.write"))
  )
  .add(
    HttpApiEndpoint.del("delete")`/secrets/${secretId}`
      .setUrlParams(ForceDeleteParams)
      .addError(SecretNotFound)
      .addError(SecretInUse)
      .annotate(OpenApi.Summary, "Delete a secret (409 while in use, unless ?force=true)")
      .pipe(requires("secret.write"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Secrets")
  .annotate(
    OpenApi.Description,
    "The credential vault. Values are encrypted at rest (a data key per secret, wrapped by the master key), resolved server-side when a tool, agent or channel runs, and never returned: responses carry the name, version, a masked hint and who used it when."
  )
{}
