import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import {
  ApiToken,
  ApiTokenCreate,
  ApiTokenCreated,
  ApiTokenNameTaken,
  ApiTokenNotFound
} from "../../domain/identity/ApiToken.js"
import { ApiTokenId } from "../../domain/identity/Ids.js"
import { OwnerOnly } from "../../domain/identity/OwnerOnly.js"
import { EmailNotVerified } from "../../domain/identity/User.js"
import { ListParams, Page } from "../../domain/Pagination.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const tokenId = HttpApiSchema.param("id", ApiTokenId)

/** Workspace API tokens for automation (`/v1/api-tokens`). */
export class ApiTokensApi extends HttpApiGroup.make("apiTokens")
  .add(
    HttpApiEndpoint.get("list", "/api-tokens")
      .setUrlParams(ListParams)
      .addSuccess(Page(ApiToken.json))
      .addError(EmailNotVerified)
      .annotate(OpenApi.Summary, "The workspace's API tokens")
      .annotate(
        OpenApi.Description,
        "Name, role, hint, creator, creation, last use and expiry, newest first; never the value. Expired tokens " +
          "stay listed until deleted."
      )
      .pipe(requires("token.manage"))
  )
  .add(
    HttpApiEndpoint.post("create", "/api-tokens")
      .setPayload(ApiTokenCreate)
      .addSuccess(ApiTokenCreated, { status: 201 })
      .addError(ApiTokenNameTaken)
      .addError(OwnerOnly)
      .addError(ValidationFailed)
      .addError(EmailNotVerified)
      .annotate(OpenApi.Summary, "Create an API token")
      .annotate(
        OpenApi.Description,
        "Returns the value (`pat_…`) this once; store it now. The role is at most the creator's, and `owner` only " +
          "when an owner creates it (`OwnerOnly`). An expiry must be in the future and at most a year away " +
          "(`ValidationFailed`). Only a signed-in user may create tokens, not another token."
      )
      .pipe(requires("token.manage"))
  )
  .add(
    HttpApiEndpoint.del("delete")`/api-tokens/${tokenId}`
      .addSuccess(HttpApiSchema.NoContent)
      .addError(ApiTokenNotFound)
      .addError(EmailNotVerified)
      .annotate(OpenApi.Summary, "Revoke an API token")
      .annotate(OpenApi.Description, "The token stops working at once, on every node.")
      .pipe(requires("token.manage"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "API tokens")
  .annotate(
    OpenApi.Description,
    "Tokens with a role in one workspace, sent as `Authorization: Bearer pat_…` on the authenticated routes. " +
      "Stored only as hashes."
  )
{}
