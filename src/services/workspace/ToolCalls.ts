/**
 * Calling an HTTP tool: the one service AI agents, flow `http` nodes,
 * workflow `http` nodes and a tool's test use. It checks the input against
 * the tool's input schema, fills the templates, reads the secrets the
 * definition names from the vault at this moment (each read counted and
 * audited against `usedBy`), sends the request through the guarded outbound
 * client (address rule at every hop, time-out, response cap, 3 redirects,
 * only to the URL's host and the tool's `allowedDomains`) and returns the
 * answer with every secret value it used masked, also when the server echoes
 * one back. Failures are typed and carry no secret.
 */
import { Effect, Redacted } from "effect"
import type { AuditActor } from "../../domain/identity/Actor.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { JsonValue } from "../../domain/Json.js"
import { type OutboundFailure, OutboundResponseTooLarge } from "../../domain/outbound/OutboundFailure.js"
import type { HttpToolDefinition } from "../../domain/workspace/HttpToolDefinition.js"
import type { SecretName } from "../../domain/workspace/Ids.js"
import type { ResourceRef } from "../../domain/workspace/ResourceRef.js"
import type { SecretReferenceMissing } from "../../domain/workspace/Secret.js"
import { secretMasker } from "../../domain/workspace/SecretMask.js"
import { type ResolvedToolRequest, ToolInputInvalid } from "../../domain/workspace/ToolCallResult.js"
import { secretNames } from "../../domain/workspace/ToolDefinitionRules.js"
import { inputProblems } from "../../domain/workspace/ToolInputValidation.js"
import { renderToolRequest } from "../../domain/workspace/ToolRequest.js"
import { OutboundHttp } from "../../providers/outbound/OutboundHttp.js"
import { SecretValues } from "./SecretValues.js"

/** Who calls a tool: the workspace, the resource whose run calls it, and on whose behalf. */
export interface ToolCaller {
  readonly workspaceId: WorkspaceId
  readonly usedBy: ResourceRef
  readonly actor: AuditActor
}

/** A call's answer, secrets masked. */
export interface ToolCallResult {
  readonly request: ResolvedToolRequest
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The body as text (UTF-8). */
  readonly body: string
  readonly sizeBytes: number
  readonly latencyMs: number
}

/** Why a call gave no answer: bad input, a missing secret, or the outbound failures (secrets masked). */
export type ToolCallFailure = ToolInputInvalid | SecretReferenceMissing | OutboundFailure

const decoder = new TextDecoder()

/** Whether a redirect may go to `url`: the tool URL's own host, or one its `allowedDomains` names. */
const hostAllowedFor = (definition: HttpToolDefinition, first: URL) => (url: URL) => {
  const host = url.hostname.toLowerCase()
  return host === first.hostname.toLowerCase() ||
    definition.allowedDomains.some((domain) =>
      domain.startsWith("*.") ? host.endsWith(domain.slice(1)) : host === domain
    )
}

export class ToolCalls extends Effect.Service<ToolCalls>()("parley/services/workspace/ToolCalls", {
  effect: Effect.gen(function*() {
    const outbound = yield* OutboundHttp
    const secrets = yield* SecretValues

    const reveal = (caller: ToolCaller, names: ReadonlyArray<SecretName>) =>
      Effect.forEach(names, (name) =>
        Effect.map(
          secrets.reveal({ workspaceId: caller.workspaceId, name, usedBy: caller.usedBy, actor: caller.actor }),
          (value) => [name, Redacted.value(value)] as const
        )).pipe(Effect.map((pairs) => new Map(pairs)))

    const call = Effect.fn("ToolCalls.call")(function*(
      caller: ToolCaller,
      definition: HttpToolDefinition,
      input: JsonValue,
      /** Headers added to the rendered request (an agent turn's `idempotency-key`), lower-case: they win over its own. */
      extraHeaders: Readonly<Record<string, string>> = {}
    ) {
      const problems = inputProblems(definition.inputSchema, input)
      if (problems.length > 0) {
        return yield* new ToolInputInvalid({ message: "The input does not satisfy the tool's input schema", problems })
      }
      const values = yield* reveal(caller, secretNames(definition))
      const rendered = renderToolRequest(definition, input, values)
      if (rendered._tag === "Left") {
        return yield* new ToolInputInvalid({
          message: "The input cannot be sent as the tool's request",
          problems: rendered.left
        })
      }
      const { request, shown } = rendered.right
      const mask = secretMasker([...values.values()])
      const maskHeaders = (headers: Readonly<Record<string, string>>) =>
        Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, mask(value)]))
      const started = performance.now()
      const answer = yield* outbound.send({
        method: request.method,
        url: request.url,
        headers: { ...request.headers, ...extraHeaders },
        body: request.body === null ? null : new TextEncoder().encode(request.body),
        timeoutMs: definition.timeoutSeconds * 1000,
        maxResponseBytes: definition.maxResponseBytes,
        mayRedirectTo: hostAllowedFor(definition, request.url),
        credentialHeaders: request.secretHeaders
      }).pipe(
        Effect.mapError((failure) =>
          failure._tag === "OutboundResponseTooLarge"
            ? new OutboundResponseTooLarge({
              host: failure.host,
              limitBytes: failure.limitBytes,
              status: failure.status,
              message: failure.message,
              headers: maskHeaders(failure.headers),
              head: new TextEncoder().encode(mask(decoder.decode(failure.head)))
            })
            : failure
        )
      )
      return {
        request: shown,
        status: answer.status,
        headers: maskHeaders(answer.headers),
        body: mask(decoder.decode(answer.body)),
        sizeBytes: answer.body.length,
        latencyMs: Math.round(performance.now() - started)
      } satisfies ToolCallResult
    })

    return { call } as const
  }),
  dependencies: [OutboundHttp.Default]
}) {}
