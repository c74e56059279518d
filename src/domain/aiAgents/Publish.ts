import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { Slug } from "../Slug.js"
import { AiAgent } from "./AiAgent.js"
import { AiAgentVersion, EvalScore, VersionNotes } from "./AiAgentVersion.js"
import { EvalCaseResult } from "./EvalRun.js"
import { AiAgentEvalRunId } from "./Ids.js"
import { PublicAgentToken } from "./PublicToken.js"

/** The body of a publish; send `If-Match` with the revision you reviewed to publish exactly that. */
export const PublishRequest = Schema.Struct({
  notes: Schema.optional(VersionNotes)
}).annotations({ identifier: "PublishRequest", parseOptions: { onExcessProperty: "error" } })

/**
 * The eval suite run against a publish candidate, when the workspace's
 * agent-ops settings ask for it: its score, the bar it had to clear, and the
 * cases that failed.
 */
export const EvalGateReport = Schema.Struct({
  evalRunId: AiAgentEvalRunId,
  score: EvalScore,
  /** The workspace's `publishGates.minimumScore`. */
  minimumScore: EvalScore,
  /** The live version's score on the same suite when `mustNotRegress` is set and a version is live; else null. */
  liveScore: Schema.NullOr(EvalScore),
  passed: Schema.Boolean,
  caseCount: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  /** The cases that failed or could not be judged, with each expectation's outcome. */
  failingCases: Schema.Array(EvalCaseResult)
}).annotations({ identifier: "EvalGateReport" })

/**
 * A successful publish: the new version (now live), the agent, the gate's
 * report (null when no gate ran), and on the first publish only the public
 * token, which is never shown again (rotate to get a new one).
 */
export class PublishResult extends Schema.Class<PublishResult>("PublishResult")({
  version: AiAgentVersion.json,
  agent: AiAgent.json,
  publicToken: Schema.NullOr(PublicAgentToken),
  evalGate: Schema.NullOr(EvalGateReport)
}) {}

/** Why the eval gate refused a candidate. */
export const PublishRefusalReason = Schema.Literal("below-minimum-score", "below-live-version")

/** The eval gate refused the candidate: it scored below the workspace minimum or below the live version. */
export class AiAgentPublishRefused extends Schema.TaggedError<AiAgentPublishRefused>()(
  "AiAgentPublishRefused",
  {
    slug: Slug,
    reasons: Schema.Array(PublishRefusalReason),
    evalGate: EvalGateReport,
    message: Schema.String
  },
  HttpApiSchema.annotations({ status: 422, description: "The publish gate refused the candidate" })
) {}

/** Something in the draft keeps it from running, found before any eval. */
export const DraftProblem = Schema.Struct({
  /**
   * A stable code: `no-instructions`, `unknown-tool-choice`, `missing-secret`, `missing-workspace-tool`,
   * `no-eval-cases`, `too-many-eval-cases`, …
   */
  code: Schema.String,
  message: Schema.String,
  /** Where: a field path (`modelSettings.toolChoice`) or a collection item (`tools/<id>`); null for the whole draft. */
  path: Schema.NullOr(Schema.String)
}).annotations({ identifier: "DraftProblem" })

/**
 * The draft cannot be published as it is: a tool names a secret or workspace
 * tool that does not exist, the tool choice names no tool, or the gate needs
 * evals and there are none.
 */
export class AiAgentDraftNotPublishable extends Schema.TaggedError<AiAgentDraftNotPublishable>()(
  "AiAgentDraftNotPublishable",
  { slug: Slug, problems: Schema.Array(DraftProblem), message: Schema.String },
  HttpApiSchema.annotations({ status: 422, description: "The draft has problems that block a publish" })
) {}
