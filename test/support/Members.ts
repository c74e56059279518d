/**
 * More people in one workspace: a signed-up account joins another's workspace
 * with a role (invited, then accepting the mailed link), and acts there
 * through the typed client (`X-Workspace-Id`).
 */
import { Effect } from "effect"
import type { Role } from "../../src/domain/Capability.js"
import { mailedToken, post, signUp, type TestAccount } from "./Accounts.js"
import { clientWithHeaders } from "./SharedClient.js"

/** A new account that joins the owner's workspace with `role`. */
export const join = (owner: TestAccount, role: Role) =>
  Effect.gen(function*() {
    const member = yield* signUp()
    const invited = yield* post("/v1/workspaces/invitations", { email: member.email, role }, { token: owner.token })
    if (invited.status !== 201) return yield* Effect.dieMessage(`invite answered ${invited.status}: ${invited.text}`)
    const token = yield* mailedToken(member.email, "invitation")
    const accepted = yield* post("/v1/workspaces/invitations/accept", { token }, { token: member.token })
    if (accepted.status !== 200) return yield* Effect.dieMessage(`accept answered ${accepted.status}: ${accepted.text}`)
    return member
  })

/** The typed client of an account, acting in `workspaceId` (its own first workspace when absent). */
export const clientOf = (account: TestAccount, workspaceId?: string) =>
  clientWithHeaders({
    "x-forwarded-for": account.address,
    authorization: `Bearer ${account.token}`,
    ...(workspaceId === undefined ? {} : { "x-workspace-id": workspaceId })
  })
