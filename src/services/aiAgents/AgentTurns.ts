/**
 * Running AI-agent turns for the routes: the playground (the draft) and
 * public turns (the live version); and for Parley's own callers, a turn of
 * the live version with no public token (a workflow's `ai-agent` node). A
 * playground transcript runs the loop statelessly in this process and stores
 * nothing; a conversation turn (the playground's conversational form, every
 * public and server-side turn) is sent to the conversation's
 * `AgentConversation` entity, which runs it exactly once however often it is
 * sent. A request without an Idempotency-Key gets one made here (it then
 * cannot be repeated safely, as for the Assistants).
 *
 * The cluster's transient answers (a repeat of a turn still running, a reply
 * interrupted by a shard moving) make it send the same message again, as
 * `SendTurn.ts` does for Assistants (`Resend.ts`); after `DELIVERY_LIMIT` the caller hears
 * "retry with the same key" (the turn goes on regardless).
 */
import type { ClusterError } from "@effect/cluster"
import { Effect, Fiber, Option, ParseResult, Schema } from "effect"
import * as Crypto from "node:crypto"
import { v5 as uuidv5, v7 as uuidv7 } from "uuid"
import { AgentConversation, type AgentTurnPayload } from "../../actors/AgentConversation.js"
import { TurnVariables, UserMessageText } from "../../domain/aiAgents/AgentTurn.js"
import type {
  AgentTurnFailed,
  AgentTurnOutcome,
  AgentTurnUpstreamFailed
} from "../../domain/aiAgents/AgentTurnOutcome.js"
import { AiAgentNotFound } from "../../domain/aiAgents/AiAgent.js"
import { type AiAgentConversationClosed, AiAgentConversationNotFound } from "../../domain/aiAgents/Conversation.js"
import { visibleOutcomes } from "../../domain/aiAgents/guardrails/VisibleOutcomes.js"
import { AiAgentConversationId, AiAgentVersionNumber } from "../../domain/aiAgents/Ids.js"
import { type PlaygroundRequest, PlaygroundResult } from "../../domain/aiAgents/Playground.js"
import { AiAgentNotPublished } from "../../domain/aiAgents/PublicToken.js"
import { type PublicTurnOutcome, type PublicTurnRequest, PublicTurnResult } from "../../domain/aiAgents/PublicTurn.js"
import { canonicalJson } from "../../domain/CanonicalJson.js"
import { UpstreamFailed, ValidationFailed } from "../../domain/HttpErrors.js"
import type { IdempotencyKeyReused } from "../../domain/Idempotency.js"
import type { AuditActor } from "../../domain/identity/Actor.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import type { JsonValue } from "../../domain/Json.js"
import { TurnFailed } from "../../domain/runtime/RuntimeSession.js"
import { AgentConversationRepo } from "../../persistence/aiAgents/AgentConversationRepo.js"
import { AiAgentRepo } from "../../persistence/aiAgents/AiAgentRepo.js"
import { Admission } from "../Admission.js"
import { currentTraceId } from "../runtime/CurrentTrace.js"
import { resentWhileTransient } from "../runtime/Resend.js"
import { AgentSnapshots } from "./AgentSnapshots.js"
import { AgentTranscripts } from "./AgentTranscripts.js"

/** Text the database cannot store (NUL) or that is not Unicode (a lone surrogate): refused, never stored. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** The fields of a request whose text cannot be stored, by their dotted path. */
export const unstorableFields = (fields: Readonly<Record<string, unknown>>, prefix = ""): Array<string> =>
  Object.entries(fields).flatMap(([name, value]) => {
    const path = `${prefix}${name}`
    if (typeof value === "string") return UNSTORABLE.test(value) || UNSTORABLE.test(name) ? [path] : []
    if (typeof value === "object" && value !== null) {
      return unstorableFields(value as Record<string, unknown>, `${path}.`)
    }
    return []
  })

const refuseUnstorable = (fields: Readonly<Record<string, unknown>>) => {
  const bad = unstorableFields(fields)
  return bad.length === 0 ? Effect.void : Effect.fail(
    new ValidationFailed({
      message: "The request contains text that cannot be stored (a NUL character or broken Unicode)",
      fields: bad
    })
  )
}

const bodyHashOf = (body: unknown) => Crypto.createHash("sha256").update(canonicalJson(body)).digest("hex")

/**
 * The id of the conversation a turn without `conversationId` starts: a
 * UUIDv7 when the request has no Idempotency-Key; with one, a UUIDv5 of the
 * workspace, agent and key, so that a retry of the same request (the client
 * gave up waiting) reaches the same conversation and its one stored turn
 * instead of starting another.
 */
const startedId = (channel: string, workspaceId: string, agentId: string, idempotencyKey: string | undefined) =>
  AiAgentConversationId.make(
    idempotencyKey === undefined
      ? uuidv7()
      : uuidv5(`${channel}/${workspaceId}/${agentId}/${idempotencyKey}`, STARTED_NAMESPACE)
  )

/** The most keys a conversation's metadata holds (as one turn's `TurnMetadata`). */
const METADATA_KEYS = 20

/** The UUIDv5 namespace of `startedId`. */
const STARTED_NAMESPACE = "5b0f3c1e-7d1a-4f43-9a55-2f1f0b7e2c13"

/** The body hash of a playground conversation turn: what makes a repeat of its key the same request. */
export const playgroundBodyHash = (body: {
  readonly conversationId: string | null
  readonly message: string
  readonly variables: Readonly<Record<string, string>>
  readonly endUserId: string | null
}) => bodyHashOf(body)

/** How a turn ended for whoever sent it: handed to a human, stopped by a guardrail, or answered. */
export const turnOutcomeOf = (outcome: AgentTurnOutcome): typeof PublicTurnOutcome.Type =>
  outcome.handoff !== null ? "handed-off" : outcome.loopFinish === "guardrail" ? "blocked" : "answered"

/**
 * A turn of an agent's live version that Parley itself sends (a workflow's
 * `ai-agent` node): no public token, no rate limit, no end user.
 */
export interface LiveTurn {
  readonly workspaceId: WorkspaceId
  readonly slug: string
  /** Where the conversation comes from; with the key, it names the caller's one conversation with the agent. */
  readonly channel: "workflow"
  /** The same key continues the same conversation (started by its first turn). */
  readonly conversationKey: string
  readonly message: string
  /** Values for the `{{name}}` placeholders of the agent's instructions. */
  readonly variables: Readonly<Record<string, string>>
  /**
   * The turn's identity in its conversation: a repeat of the key answers the
   * turn stored under it, whatever its message (the body hash covers the key
   * alone), so a caller replaying its own step gets the turn it already had.
   */
  readonly idempotencyKey: string
  /** Who the conversation is started on behalf of (recorded as its `startedBy`). */
  readonly actor: AuditActor
}

const decodeMessage = Schema.decodeUnknown(UserMessageText)
const decodeVariables = Schema.decodeUnknown(TurnVariables)
const invalid = (field: string, what: string) => (error: ParseResult.ParseError) =>
  new ValidationFailed({
    message: `${what}: ${ParseResult.TreeFormatter.formatErrorSync(error).slice(0, 500)}`,
    fields: [field]
  })

/** A conversation turn ready to send to its entity, and how its outcome is answered. */
export interface PreparedTurn<A> {
  readonly payload: AgentTurnPayload
  readonly answer: (outcome: AgentTurnOutcome) => A
}

/** The answers of a turn the entity ran, as the routes give them. */
type SentErrors =
  | AiAgentConversationNotFound
  | AiAgentConversationClosed
  | IdempotencyKeyReused
  | AgentTurnFailed
  | AgentTurnUpstreamFailed
  | ClusterError.MailboxFull
  | ClusterError.AlreadyProcessingMessage
  | ClusterError.PersistenceError

const typed = <A>(sent: Effect.Effect<A, SentErrors>) =>
  resentWhileTransient(sent, "This turn is still being processed; retry with the same key").pipe(
    Effect.catchTags({
      AgentTurnUpstreamFailed: (failure) =>
        Effect.fail(new UpstreamFailed({ provider: failure.provider, message: failure.message })),
      AgentTurnFailed: (failure) =>
        Effect.fail(
          new TurnFailed({
            sessionId: failure.conversationId,
            idempotencyKey: "",
            attempts: failure.attempts,
            message: failure.message
          })
        )
    })
  )

/** The answer of a turn the entity ran (its outcome decoded already: not validated a second time). */
const playgroundResultOf = (outcome: AgentTurnOutcome) =>
  PlaygroundResult.make({
    conversationId: outcome.conversationId,
    message: { id: outcome.message.id, content: outcome.message.content },
    toolCalls: outcome.toolCalls,
    guardrailEvents: outcome.guardrailEvents,
    handoff: outcome.handoff,
    finishReason: outcome.finishReason,
    usage: outcome.usage,
    latencyMs: outcome.latencyMs,
    model: outcome.model,
    // A playground turn always runs the draft, so it has a revision.
    revision: outcome.revision!,
    traceId: outcome.traceId
  }, true)

export class AgentTurns extends Effect.Service<AgentTurns>()("parley/services/aiAgents/AgentTurns", {
  scoped: Effect.gen(function*() {
    const client = yield* AgentConversation.client
    const admission = yield* Admission
    const scope = yield* Effect.scope
    const agents = yield* AiAgentRepo
    const conversations = yield* AgentConversationRepo
    const snapshots = yield* AgentSnapshots
    const transcripts = yield* AgentTranscripts

    /**
     * A turn delivered on a fiber of its own, holding a permit of the node's
     * turns gate (as the Assistants' turns do) until its answer comes or the
     * delivery limit passes, whatever becomes of the request that sent it: a
     * client that leaves does not free the node's capacity while its turn
     * still runs. A full gate answers 503 `Overloaded` at once; the entity
     * runs the turn once however often it is sent.
     */
    const send = (payload: AgentTurnPayload) =>
      admission.admit(typed(client(payload.conversationId).Turn(payload))).pipe(
        Effect.forkIn(scope),
        Effect.flatMap(Fiber.join)
      )
    const run = <A>(prepared: PreparedTurn<A>) => Effect.map(send(prepared.payload), prepared.answer)

    const agentOf = (workspaceId: WorkspaceId, slug: string) =>
      Effect.flatMap(agents.findBySlug(workspaceId, slug), (found) =>
        Option.match(found, {
          onNone: () => Effect.fail(new AiAgentNotFound({ slug, message: `No AI agent ${slug} in this workspace` })),
          onSome: Effect.succeed
        }))

    /** A stateless run of the draft over a whole transcript: nothing stored. */
    const transcript = Effect.fn("AgentTurns.transcript")(
      function*(
        principal: Principal,
        slug: string,
        request: Extract<typeof PlaygroundRequest.Type, { readonly messages: unknown }>
      ) {
        const last = request.messages.at(-1)!
        if (last.role !== "user") {
          return yield* new ValidationFailed({
            message: "The transcript's last message must be the user's",
            fields: ["messages"]
          })
        }
        const agent = yield* agentOf(principal.workspaceId, slug)
        const { revision, snapshot } = yield* snapshots.forTurn(agent)
        const ran = yield* transcripts.run({
          workspaceId: principal.workspaceId,
          agentId: agent.id,
          snapshot,
          messages: request.messages,
          variables: request.variables ?? {}
        })
        return PlaygroundResult.make({
          conversationId: null,
          message: { id: null, content: ran.reply },
          toolCalls: ran.toolCalls,
          guardrailEvents: ran.guardrailEvents,
          handoff: ran.handoff,
          finishReason: ran.finishReason,
          usage: ran.usage,
          latencyMs: ran.latencyMs,
          model: ran.model,
          revision,
          traceId: yield* currentTraceId
        })
      },
      Effect.catchTag(
        "AgentTurnUpstreamFailed",
        (failure) => Effect.fail(new UpstreamFailed({ provider: failure.provider, message: failure.message }))
      )
    )

    /**
     * A playground conversation turn made ready to send: the request checked,
     * the conversation found (or started, when the request names none).
     */
    const preparePlayground = Effect.fn("AgentTurns.preparePlayground")(function*(
      principal: Principal,
      slug: string,
      request: Exclude<typeof PlaygroundRequest.Type, { readonly messages: unknown }>,
      idempotencyKey?: string
    ) {
      yield* refuseUnstorable(request as unknown as Record<string, unknown>)
      const agent = yield* agentOf(principal.workspaceId, slug)
      let conversationId: AiAgentConversationId
      if (request.conversationId !== undefined) {
        const found = yield* conversations.find(principal.workspaceId, agent.id, request.conversationId)
        if (Option.isNone(found) || found.value.channel !== "playground") {
          return yield* new AiAgentConversationNotFound({
            conversationId: request.conversationId,
            message: `No playground conversation ${request.conversationId} for this agent`
          })
        }
        conversationId = request.conversationId
      } else {
        conversationId = startedId("playground", principal.workspaceId, agent.id, idempotencyKey)
        yield* conversations.create({
          id: conversationId,
          workspaceId: principal.workspaceId,
          agentId: agent.id,
          channel: "playground",
          version: null,
          endUserId: request.endUserId ?? null,
          metadata: {},
          startedBy: actorOf(principal) as unknown as JsonValue
        })
      }
      const body = {
        conversationId: request.conversationId ?? null,
        message: request.message,
        variables: request.variables ?? {},
        endUserId: request.endUserId ?? null
      }
      return {
        payload: {
          workspaceId: principal.workspaceId,
          agentId: agent.id,
          conversationId,
          source: { kind: "draft" },
          message: request.message,
          variables: request.variables ?? {},
          endUserId: request.endUserId ?? null,
          metadata: {},
          idempotencyKey: idempotencyKey ?? uuidv7(),
          bodyHash: playgroundBodyHash(body),
          traceId: yield* currentTraceId,
          stream: false
        },
        answer: playgroundResultOf
      } satisfies PreparedTurn<PlaygroundResult>
    })

    /**
     * One playground turn: a transcript run, or one message of a stored
     * playground conversation (started when the request names none).
     */
    const playground = Effect.fn("AgentTurns.playground")(function*(
      principal: Principal,
      slug: string,
      request: typeof PlaygroundRequest.Type,
      idempotencyKey?: string
    ) {
      if ("messages" in request) {
        yield* refuseUnstorable(request as unknown as Record<string, unknown>)
        return yield* transcript(principal, slug, request)
      }
      return yield* run(yield* preparePlayground(principal, slug, request, idempotencyKey))
    })

    /**
     * A public turn of a live agent made ready to send (the caller has resolved its public
     * token to the agent and its live version): a new `web` conversation when
     * the request names none, else one of this agent started with the same
     * end user.
     */
    const preparePublic = Effect.fn("AgentTurns.preparePublic")(function*(
      agent: {
        readonly workspaceId: WorkspaceId
        readonly agentId: AiAgentConversationId | string
        readonly version: number
      },
      request: typeof PublicTurnRequest.Type,
      idempotencyKey?: string
    ) {
      yield* refuseUnstorable(request as unknown as Record<string, unknown>)
      const agentId = agent.agentId as Parameters<typeof conversations.create>[0]["agentId"]
      const endUserId = request.endUserId ?? null
      let conversationId: AiAgentConversationId
      if (request.conversationId !== undefined) {
        const found = yield* conversations.find(agent.workspaceId, agentId, request.conversationId)
        if (Option.isNone(found) || found.value.channel !== "web" || found.value.endUserId !== endUserId) {
          return yield* new AiAgentConversationNotFound({
            conversationId: request.conversationId,
            message: `No conversation ${request.conversationId} for this agent`
          })
        }
        conversationId = request.conversationId
        // A later turn's metadata is merged into the conversation's (its keys win), within the same bound.
        if (request.metadata !== undefined && Object.keys(request.metadata).length > 0) {
          const merged = yield* conversations.mergeMetadata(conversationId, request.metadata, METADATA_KEYS)
          if (!merged) {
            return yield* new ValidationFailed({
              message: `The conversation's metadata would hold more than ${METADATA_KEYS} keys`,
              fields: ["metadata"]
            })
          }
        }
      } else {
        conversationId = startedId("web", agent.workspaceId, agentId, idempotencyKey)
        yield* conversations.create({
          id: conversationId,
          workspaceId: agent.workspaceId,
          agentId,
          channel: "web",
          version: agent.version,
          endUserId,
          metadata: request.metadata ?? {},
          startedBy: null
        })
      }
      const body = {
        conversationId: request.conversationId ?? null,
        message: request.message,
        endUserId,
        metadata: request.metadata ?? {}
      }
      const payload: AgentTurnPayload = {
        workspaceId: agent.workspaceId,
        agentId,
        conversationId,
        source: { kind: "version", number: AiAgentVersionNumber.make(agent.version) },
        message: request.message,
        variables: {},
        endUserId,
        metadata: request.metadata ?? {},
        idempotencyKey: idempotencyKey ?? uuidv7(),
        bodyHash: bodyHashOf(body),
        traceId: yield* currentTraceId,
        stream: false
      }
      const answer = (outcome: AgentTurnOutcome) =>
        PublicTurnResult.make({
          conversationId: outcome.conversationId,
          message: outcome.message,
          outcome: turnOutcomeOf(outcome),
          handoff: outcome.handoff !== null,
          guardrails: visibleOutcomes(outcome.guardrailEvents),
          version: outcome.version ?? AiAgentVersionNumber.make(agent.version),
          traceId: outcome.traceId
        })
      return { payload, answer } satisfies PreparedTurn<PublicTurnResult>
    })

    /** One public turn of a live agent (see `preparePublic`). */
    const publicTurn = (
      agent: Parameters<typeof preparePublic>[0],
      request: typeof PublicTurnRequest.Type,
      idempotencyKey?: string
    ) => Effect.flatMap(preparePublic(agent, request, idempotencyKey), run)

    /**
     * A turn of the agent's live version for a caller inside Parley (see
     * `LiveTurn`): the agent must exist and be published; the conversation,
     * named by the channel and key (a UUIDv5, as `startedId`), is started by
     * the first turn on the live version of that moment, and every turn runs
     * the version live when it is sent.
     */
    const liveTurn = Effect.fn("AgentTurns.liveTurn")(function*(turn: LiveTurn) {
      yield* refuseUnstorable({ message: turn.message, variables: turn.variables })
      const message = yield* Effect.mapError(
        decodeMessage(turn.message),
        invalid("message", "The message must be 1 to 8000 characters")
      )
      const variables = yield* Effect.mapError(
        decodeVariables(turn.variables),
        invalid("variables", "The agent's variables are invalid")
      )
      const agent = yield* agentOf(turn.workspaceId, turn.slug)
      if (agent.liveVersion === null) {
        return yield* new AiAgentNotPublished({
          slug: agent.slug,
          message: `The AI agent ${agent.slug} has no live version: publish it first`
        })
      }
      const conversationId = startedId(turn.channel, turn.workspaceId, agent.id, turn.conversationKey)
      yield* conversations.create({
        id: conversationId,
        workspaceId: turn.workspaceId,
        agentId: agent.id,
        channel: turn.channel,
        version: agent.liveVersion,
        endUserId: null,
        metadata: {},
        startedBy: turn.actor as unknown as JsonValue
      })
      return yield* send({
        workspaceId: turn.workspaceId,
        agentId: agent.id,
        conversationId,
        source: { kind: "version", number: agent.liveVersion },
        message,
        variables,
        endUserId: null,
        metadata: {},
        idempotencyKey: turn.idempotencyKey,
        bodyHash: bodyHashOf({ conversationId, idempotencyKey: turn.idempotencyKey }),
        traceId: yield* currentTraceId,
        stream: false
      })
    })

    return { playground, publicTurn, preparePlayground, preparePublic, liveTurn, send } as const
  }),
  dependencies: [AgentConversationRepo.Default]
}) {}
