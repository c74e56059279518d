import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Slug } from "../../domain/Slug.js"
import {
  ChainIngressAccepted,
  ChainIngressDisabled,
  IngressReplayed,
  PublicIngressHeaders,
  PublicIngressPayload
} from "../../domain/workflows/ChainIngress.js"
import { ChainNotRunnable } from "../../domain/workflows/ChainNotRunnable.js"
import { IngressSignature } from "../middleware/IngressSignature.js"

const workspaceSlug = HttpApiSchema.param("workspace_slug", Slug)
const chainSlug = HttpApiSchema.param("chain_slug", Slug)

/** Public, signed ingress into a workflow chain (Standard Webhooks). */
export class PublicChainsApi extends HttpApiGroup.make("publicChains")
  .add(
    HttpApiEndpoint.post("ingress")`/public/workflow-chains/${workspaceSlug}/${chainSlug}/ingress`
      .setHeaders(PublicIngressHeaders)
      .setPayload(PublicIngressPayload)
      .addSuccess(ChainIngressAccepted, { status: 202 })
      .addError(ChainIngressDisabled)
      .addError(ChainNotRunnable)
      .addError(IngressReplayed)
      .annotate(OpenApi.Summary, "Deliver a signed event to a chain; starts a run")
      .annotate(
        OpenApi.Description,
        "Signed with the chain's secret (Standard Webhooks, five-minute tolerance). An unknown workspace or chain fails the signature check (401) like a wrong signature, so neither is revealed. A repeated webhook-id is refused (409 IngressReplayed) with the run the first delivery started; no second run starts."
      )
  )
  .middleware(IngressSignature)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Public chain ingress")
  .annotate(OpenApi.Description, "Signed webhook deliveries that start workflow-chain runs.")
{}
