import { Command } from "@effect/cli"
import { Console } from "effect"
import { Api } from "../http/Api.js"
import { apiDocument } from "../http/docs/ApiDocument.js"

/** `parley openapi`: print the OpenAPI document of the whole contract. */
export const printOpenApi = Command.make(
  "openapi",
  {},
  () => Console.log(JSON.stringify(apiDocument(Api), null, 2))
).pipe(
  Command.withDescription("Print the OpenAPI 3.1 document of the /v1 contract")
)
