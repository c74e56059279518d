/**
 * Helpers for import tests. The typed client for behaviour (`importDrawio`,
 * `importSource`, reading the result's Assistant), raw requests for wire
 * checks (bad query parameters, bodies the contract refuses, multipart).
 */
import { HttpClientRequest } from "@effect/platform"
import { Effect, Schema } from "effect"
import type { AssistantId } from "../../../src/domain/assistants/Assistant.js"
import {
  DrawioImportRequest,
  MultiFileSourceImport,
  SingleSourceImport
} from "../../../src/domain/imports/ImportRequest.js"
import { as, type TestAccount } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { clientOf } from "../../support/Members.js"

export const postJson = (account: TestAccount, url: string, body: unknown) =>
  exchange(as(HttpClientRequest.post(url).pipe(HttpClientRequest.bodyUnsafeJson(body)), account))

export const getJson = (account: TestAccount, url: string) => exchange(as(HttpClientRequest.get(url), account))

export const newTarget = (name: string) => ({ kind: "new", name })

/**
 * `POST /imports/drawio` through the typed client: a new Assistant named `name`
 * (in `workspaceId` when given, else the account's first workspace).
 */
export const importDrawio = (account: TestAccount, xml: string, name: string, workspaceId?: string) =>
  Effect.flatMap(clientOf(account, workspaceId), (client) =>
    client.imports.importDrawio({
      payload: Schema.decodeUnknownSync(DrawioImportRequest)({ xml, target: newTarget(name) })
    }))

/** `POST /imports/source` (JSON: `content` or `files`) through the typed client, optionally in `workspaceId`. */
export const importSource = (account: TestAccount, body: object, workspaceId?: string) =>
  Effect.flatMap(clientOf(account, workspaceId), (client) =>
    "files" in body
      ? client.imports.importSource({ payload: Schema.decodeUnknownSync(MultiFileSourceImport)(body) })
      : client.imports.importSource({ payload: Schema.decodeUnknownSync(SingleSourceImport)(body) }))

/** The draft flow and the intents of an imported Assistant. */
export const importedAssistant = (account: TestAccount, agentId: AssistantId) =>
  Effect.flatMap(clientOf(account), (client) =>
    Effect.all({
      flow: client.flows.getFlow({ path: { agent_id: agentId } }),
      intents: client.assistants.listIntents({ path: { agent_id: agentId }, urlParams: { limit: 100 } })
    }))
