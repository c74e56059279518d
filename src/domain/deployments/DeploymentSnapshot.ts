/**
 * What a deployment freezes of an Assistant's draft, and what follows from it:
 * the snapshot (settings, intents and flow as a Parley document), the version
 * of the NLU model trained on it (a content hash of what the classifier
 * learns from, so two deployments of the same intents share a version), and
 * the embed token's hint and snippet. The runtime compiles a snapshot as it
 * does a draft (`programInputOf`).
 */
import * as Crypto from "node:crypto"
import type { Assistant } from "../assistants/Assistant.js"
import type { Flow } from "../assistants/Flow.js"
import type { Intent } from "../assistants/Intent.js"
import type { ParleyDocument } from "../assistants/ParleyDocument.js"
import { canonicalJson } from "../CanonicalJson.js"
import { parleyDocumentOf } from "../exports/ParleyExport.js"

/** A draft as the service reads it. */
export interface DraftToSnapshot {
  readonly assistant: Assistant
  readonly flow: Flow
  readonly intents: ReadonlyArray<Intent>
}

/** The Parley document of a draft (the same as its `parley` export): what a deployment keeps and runs for ever. */
export const snapshotOf = ({ assistant, flow, intents }: DraftToSnapshot): ParleyDocument =>
  parleyDocumentOf(assistant, flow, intents)

/** The version of the NLU model of a snapshot: SHA-256 (32 hex) of its intents' examples, slots and threshold. */
export const nluModelVersionOf = (snapshot: ParleyDocument): string =>
  Crypto.createHash("sha256").update(canonicalJson({
    threshold: snapshot.assistant.nluThreshold,
    intents: snapshot.intents
      .map((intent) => ({ name: intent.name, utterances: intent.utterances, slots: intent.slots }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  })).digest("hex").slice(0, 32)

/** The prefix of embed tokens. */
export const EMBED_TOKEN_PREFIX = "cdp_"

/** All that is shown of a token after its creation: its last four characters. */
export const tokenHintOf = (token: string): string => `cdp_…${token.slice(-4)}`

/** The tag a page adds to embed the deployment. */
export const embedSnippet = (publicUrl: string, token: string): string =>
  `<script src="${publicUrl.replace(/\/+$/, "")}/embed/v1/widget.js" data-token="${token}" async></script>`
