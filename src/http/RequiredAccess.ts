import type { HttpApiEndpoint } from "@effect/platform"
import { Context } from "effect"
import type { Access } from "../domain/Capability.js"
import { capabilities } from "../domain/Capability.js"
import { transformOperation } from "./OperationTransform.js"

/** The access an authenticated endpoint requires; read by the authorization middleware and the docs. */
export class RequiredAccess extends Context.Tag("parley/http/RequiredAccess")<RequiredAccess, Access>() {}

/** The header that selects the workspace of a request; without it, the caller's first membership. */
export const WORKSPACE_HEADER = "x-workspace-id"

const describe = (access: Access): string =>
  access === "account"
    ? "Requires a signed-in user (acting on their own account)."
    : `Requires capability \`${access}\` (role ${capabilities[access].role} or above${
      capabilities[access].verifiedEmail ? ", with a verified email" : ""
    }).`

const workspaceParameter = {
  name: "X-Workspace-Id",
  in: "header",
  required: false,
  description: "The workspace to act in; without it, the caller's first membership.",
  schema: { type: "string", format: "uuid" }
} as const

/**
 * Annotate an endpoint with the access it requires. The OpenAPI operation
 * gets an `x-parley-access` field, a sentence in its description and, for
 * workspace capabilities, the `X-Workspace-Id` header parameter.
 */
export const requires = (access: Access) => <E extends HttpApiEndpoint.HttpApiEndpoint.Any>(endpoint: E): E =>
  transformOperation((operation) => ({
    ...operation,
    "x-parley-access": access,
    description: [operation.description, describe(access)].filter((line) => typeof line === "string").join("\n\n"),
    parameters: access === "account" ? operation.parameters : [...operation.parameters, workspaceParameter as any]
  }))(
    (endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps).annotate(RequiredAccess, access)
  ) as unknown as E
