/**
 * Roles and the capabilities each holds. One table drives the authorization
 * middleware, the contract's annotations and the authorization test matrix.
 */
import { Schema } from "effect"

/** A member's role in a workspace; each role holds every capability of the roles below it. */
export const Role = Schema.Literal("viewer", "editor", "developer", "admin", "owner")
export type Role = typeof Role.Type

const rank: Record<Role, number> = { viewer: 1, editor: 2, developer: 3, admin: 4, owner: 5 }

/** Whether `role` is at least `minimum`. */
export const roleAtLeast = (role: Role, minimum: Role): boolean => rank[role] >= rank[minimum]

/** The roles ranked above `role`. */
export const rolesAbove = (role: Role): ReadonlyArray<Role> => Role.literals.filter((other) => rank[other] > rank[role])

interface Rule {
  /** The least role that holds the capability. */
  readonly role: Role
  /** Whether the caller's email must be verified (publishing, deploying, secrets, tokens, invitations). */
  readonly verifiedEmail: boolean
}

const rule = (role: Role, verifiedEmail = false): Rule => ({ role, verifiedEmail })

/**
 * The capability table. The seed fixes four rows (workflow.read viewer,
 * workflow.write editor, workflow.publish developer, runtime.simulate editor);
 * the rest follow the same spirit: read viewer, edit editor,
 * publish/deploy/rotate developer, secrets/members/audit/billing admin.
 */
export const capabilities = {
  "workspace.read": rule("viewer"),
  "workspace.usage": rule("viewer"),
  "billing.read": rule("admin"),
  "member.read": rule("viewer"),
  "member.manage": rule("admin", true),
  "token.manage": rule("admin", true),
  "audit.read": rule("admin"),
  "secret.read": rule("admin"),
  "secret.write": rule("admin", true),
  "tool.read": rule("viewer"),
  "tool.write": rule("developer"),
  "settings.read": rule("viewer"),
  "settings.write": rule("admin"),
  "support.report": rule("viewer"),
  "assistant.read": rule("viewer"),
  "assistant.write": rule("editor"),
  "assistant.deploy": rule("developer", true),
  "ai-agent.read": rule("viewer"),
  "ai-agent.write": rule("editor"),
  "ai-agent.publish": rule("developer", true),
  "workflow.read": rule("viewer"),
  "workflow.write": rule("editor"),
  "workflow.publish": rule("developer", true),
  "chain.read": rule("viewer"),
  "chain.write": rule("editor"),
  "chain.run": rule("editor"),
  "chain.rotate": rule("developer", true),
  "runtime.simulate": rule("editor"),
  "model.read": rule("viewer"),
  "model.write": rule("editor"),
  "model.deploy": rule("developer", true),
  "channel.read": rule("viewer"),
  "channel.write": rule("developer", true)
} as const satisfies Record<string, Rule>

/** A named permission that a route requires. */
export type Capability = keyof typeof capabilities
export const Capability = Schema.Literal(...(Object.keys(capabilities) as Array<Capability>))

/**
 * What an authenticated route requires: a workspace capability, or only a
 * signed-in user acting on their own account (sessions, MFA, their workspaces).
 */
export type Access = Capability | "account"

/** Whether a member with `role` holds `capability`. */
export const holds = (role: Role, capability: Capability): boolean => roleAtLeast(role, capabilities[capability].role)
