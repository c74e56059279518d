/**
 * Identity and access, assembled: the repositories, the primitives (hashing,
 * sealing, TOTP, limits, the audit log), the token machinery and the services
 * the routes call. It needs the database and a `Mailer` (the root chooses SMTP
 * or the development mailer; tests read the development outbox).
 */
import { Layer } from "effect"
import { ApiTokenRepo } from "../../persistence/identity/ApiTokenRepo.js"
import { InvitationRepo } from "../../persistence/identity/InvitationRepo.js"
import { OneTimeTokenRepo } from "../../persistence/identity/OneTimeTokenRepo.js"
import { RecoveryCodeRepo } from "../../persistence/identity/RecoveryCodeRepo.js"
import { SessionRepo } from "../../persistence/identity/SessionRepo.js"
import { SigningKeyRepo } from "../../persistence/identity/SigningKeyRepo.js"
import { UserRepo } from "../../persistence/identity/UserRepo.js"
import { WorkspaceRepo } from "../../persistence/identity/WorkspaceRepo.js"
import { AuditLog } from "../AuditLog.js"
import { MasterKey } from "../MasterKey.js"
import { PasswordHasher } from "../PasswordHasher.js"
import { RateLimiter } from "../RateLimiter.js"
import { SecretBox } from "../SecretBox.js"
import { Totp } from "../Totp.js"
import { AccessTokens } from "./AccessTokens.js"
import { AccountAudit } from "./AccountAudit.js"
import { Accounts } from "./Accounts.js"
import { ApiTokens } from "./ApiTokens.js"
import { DeviceCookies } from "./DeviceCookies.js"
import { Factors } from "./Factors.js"
import { IdentityDirectory } from "./IdentityDirectory.js"
import { Invitations } from "./Invitations.js"
import { Mfa } from "./Mfa.js"
import { Sessions } from "./Sessions.js"
import { SigningKeys } from "./SigningKeys.js"
import { Workspaces } from "./Workspaces.js"

const Repositories = Layer.mergeAll(
  UserRepo.Default,
  SessionRepo.Default,
  OneTimeTokenRepo.Default,
  RecoveryCodeRepo.Default,
  WorkspaceRepo.Default,
  InvitationRepo.Default,
  ApiTokenRepo.Default,
  SigningKeyRepo.Default
)

const Primitives = Layer.mergeAll(
  PasswordHasher.Default,
  Totp.Default,
  RateLimiter.Default,
  AuditLog.Default,
  SecretBox.Default
).pipe(Layer.provideMerge(MasterKey.Default))

export const IdentityLive = Layer.mergeAll(
  Accounts.Default,
  Mfa.Default,
  Invitations.Default,
  ApiTokens.Default
).pipe(
  Layer.provideMerge(Layer.mergeAll(Sessions.Default, Workspaces.Default, Factors.Default)),
  Layer.provideMerge(
    Layer.mergeAll(AccessTokens.Default, AccountAudit.Default, IdentityDirectory.Default, DeviceCookies.Default)
  ),
  Layer.provideMerge(SigningKeys.Default),
  Layer.provideMerge(Layer.mergeAll(Repositories, Primitives))
)
