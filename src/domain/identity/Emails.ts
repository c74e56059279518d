/**
 * The mail Parley sends about accounts, as plain values: each builder takes
 * the facts it needs and the public URL, and returns the message (text and
 * HTML, every interpolated value escaped in the HTML) with its action links.
 */
import { DateTime, Redacted } from "effect"
import type { Role } from "../Capability.js"
import { EMAIL_VERIFICATION_TTL_SECONDS } from "./EmailVerification.js"
import { INVITATION_TTL_SECONDS } from "./Invitation.js"
import { PASSWORD_RESET_TTL_SECONDS } from "./PasswordReset.js"

/** What a mail is about; adapters may use it to categorise, traces name it. */
export type MailTag = "email-verification" | "password-reset" | "invitation" | "security-notice" | "lead"

/** One mail to one recipient; `links` are the action URLs it carries (the development mailer logs them). */
export interface MailMessage {
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly html: string
  readonly tag: MailTag
  readonly links: ReadonlyArray<string>
}

/** A security-relevant change to an account that its owner is told about. */
export type SecurityEvent =
  | "mfa-enabled"
  | "mfa-disabled"
  | "mfa-reset"
  | "password-changed"
  | "sessions-revoked"
  | "account-disabled"

/** A token as issued: plain, or kept `Redacted` in memory. */
export type MailToken = string | Redacted.Redacted<string>

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }

// The characters that mean something in HTML text or attributes, escaped.
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (char) => entities[char]!)

// A subject is one header line: user-provided names must not break it.
export const oneLine = (value: string): string => value.replace(/\s+/g, " ").trim()

/** The paths of the mailed links, after the mail link URL; Parley serves a page at each (`src/http/pages`). */
export const MAIL_LINK_PATHS = {
  verifyEmail: "/verify-email",
  resetPassword: "/reset-password",
  acceptInvitation: "/accept-invitation"
} as const

const actionLink = (publicUrl: string, path: string, token: MailToken): string => {
  const value = Redacted.isRedacted(token) ? Redacted.value(token) : token
  return `${publicUrl.replace(/\/+$/, "")}${path}?token=${encodeURIComponent(value)}`
}

const validFor = (seconds: number): string => {
  const [amount, unit] = seconds % 86_400 === 0 && seconds >= 2 * 86_400
    ? [seconds / 86_400, "day"]
    : seconds % 3600 === 0
    ? [seconds / 3600, "hour"]
    : [Math.ceil(seconds / 60), "minute"]
  return `${amount} ${unit}${amount === 1 ? "" : "s"}`
}

interface Body {
  readonly greeting: string
  /** Paragraphs, plain text; escaped for the HTML part. */
  readonly paragraphs: ReadonlyArray<string>
  readonly action?: { readonly label: string; readonly url: string }
  /** Paragraphs after the action. */
  readonly closing: ReadonlyArray<string>
}

const render = (body: Body): { readonly text: string; readonly html: string } => {
  const action = body.action
  const text = [
    body.greeting,
    ...body.paragraphs,
    ...(action ? [`${action.label}: ${action.url}`] : []),
    ...body.closing,
    "— Parley"
  ].join("\n\n") + "\n"
  const paragraph = (line: string) => `<p>${escapeHtml(line)}</p>`
  const html = [
    "<!doctype html>",
    "<html><body style=\"font-family: sans-serif; line-height: 1.5\">",
    paragraph(body.greeting),
    ...body.paragraphs.map(paragraph),
    ...(action
      ? [
        `<p><a href="${escapeHtml(action.url)}">${escapeHtml(action.label)}</a></p>`,
        `<p style="font-size: smaller">Or paste this address into your browser: ${escapeHtml(action.url)}</p>`
      ]
      : []),
    ...body.closing.map(paragraph),
    "<p>— Parley</p>",
    "</body></html>"
  ].join("\n") + "\n"
  return { text, html }
}

/** The signup mail: a link to `/verify-email` that confirms the address, valid 24 hours. */
export const verificationEmail = (input: {
  readonly to: string
  readonly displayName: string
  readonly token: MailToken
  readonly publicUrl: string
}): MailMessage => {
  const url = actionLink(input.publicUrl, MAIL_LINK_PATHS.verifyEmail, input.token)
  return {
    to: input.to,
    subject: "Confirm your email address for Parley",
    tag: "email-verification",
    links: [url],
    ...render({
      greeting: `Hello ${input.displayName},`,
      paragraphs: [`Please confirm that ${input.to} is your email address.`],
      action: { label: "Confirm your email address", url },
      closing: [
        `The link works for ${validFor(EMAIL_VERIFICATION_TTL_SECONDS)}.`,
        "If you did not sign up for Parley, ignore this mail."
      ]
    })
  }
}

/** The forgot-password mail: a link to `/reset-password`, valid 30 minutes. */
export const passwordResetEmail = (input: {
  readonly to: string
  readonly displayName: string
  readonly token: MailToken
  readonly publicUrl: string
}): MailMessage => {
  const url = actionLink(input.publicUrl, MAIL_LINK_PATHS.resetPassword, input.token)
  return {
    to: input.to,
    subject: "Reset your Parley password",
    tag: "password-reset",
    links: [url],
    ...render({
      greeting: `Hello ${input.displayName},`,
      paragraphs: ["Someone asked to reset the password of your Parley account."],
      action: { label: "Choose a new password", url },
      closing: [
        `The link works for ${
          validFor(PASSWORD_RESET_TTL_SECONDS)
        }, once. Setting a new password signs out every session.`,
        "If you did not ask for this, ignore this mail: your password stays as it is."
      ]
    })
  }
}

/** An invitation to join a workspace: a link to `/accept-invitation`, valid 7 days. */
export const invitationEmail = (input: {
  readonly to: string
  readonly workspaceName: string
  readonly inviterName: string
  readonly role: Role
  readonly token: MailToken
  readonly publicUrl: string
}): MailMessage => {
  const url = actionLink(input.publicUrl, MAIL_LINK_PATHS.acceptInvitation, input.token)
  return {
    to: input.to,
    subject: oneLine(`${input.inviterName} invited you to ${input.workspaceName} on Parley`),
    tag: "invitation",
    links: [url],
    ...render({
      greeting: "Hello,",
      paragraphs: [
        `${input.inviterName} invited you to join the workspace ${input.workspaceName} on Parley as ${
          articleFor(input.role)
        } ${input.role}.`,
        `Sign in (or sign up) as ${input.to} to accept.`
      ],
      action: { label: "Accept the invitation", url },
      closing: [
        `The invitation works for ${validFor(INVITATION_TTL_SECONDS)}.`,
        "If you do not know the sender, ignore this mail."
      ]
    })
  }
}

const articleFor = (role: Role): string => (/^[aeiou]/.test(role) ? "an" : "a")

const happened: Record<SecurityEvent, { readonly subject: string; readonly what: string }> = {
  "mfa-enabled": {
    subject: "Two-factor authentication was turned on for your Parley account",
    what: "two-factor authentication was turned on for your account"
  },
  "mfa-disabled": {
    subject: "Two-factor authentication was turned off for your Parley account",
    what: "two-factor authentication was turned off for your account"
  },
  "password-changed": {
    subject: "Your Parley password was changed",
    what: "the password of your account was changed"
  },
  "sessions-revoked": {
    subject: "Your Parley sessions were signed out",
    what: "every session of your account was signed out"
  },
  "mfa-reset": {
    subject: "Two-factor authentication was reset on your Parley account",
    what: "the operator of this Parley reset two-factor authentication on your account, at your request; " +
      "sign in with your password and set it up again"
  },
  "account-disabled": {
    subject: "Your Parley account was disabled",
    what: "the operator of this Parley disabled your account and signed it out everywhere"
  }
}

const formatUtc = (at: DateTime.DateTime): string =>
  `${DateTime.formatIso(DateTime.toUtc(at)).slice(0, 16).replace("T", " ")} UTC`

/** Tells the owner of an account about a security-relevant change; it carries no links. */
export const securityNoticeEmail = (input: {
  readonly to: string
  readonly displayName: string
  readonly event: SecurityEvent
  readonly at: DateTime.DateTime
}): MailMessage => {
  const { subject, what } = happened[input.event]
  return {
    to: input.to,
    subject,
    tag: "security-notice",
    links: [],
    ...render({
      greeting: `Hello ${input.displayName},`,
      paragraphs: [`On ${formatUtc(input.at)}, ${what}.`],
      closing: [
        "If this was you, there is nothing to do.",
        "If it was not you, reset your password at once with \"Forgot password\" on the sign-in page: " +
        "that signs out every session, including whoever did this."
      ]
    })
  }
}
