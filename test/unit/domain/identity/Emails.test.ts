/**
 * Each mail carries its action link in `links`, in the text and in the HTML,
 * with the token URL-encoded; names are escaped in the HTML; the security
 * notice carries no link and tells the user what to do if it was not them.
 */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Redacted } from "effect"
import {
  invitationEmail,
  type MailMessage,
  passwordResetEmail,
  securityNoticeEmail,
  verificationEmail
} from "../../../../src/domain/identity/Emails.js"

const publicUrl = "https://parley.example.com/"
const token = "AbC_dEf-0123456789abcdefghij"

const expectLink = (message: MailMessage, link: string) => {
  expect(message.links).toEqual([link])
  expect(message.text).toContain(link)
  expect(message.html).toContain(`href="${link}"`)
}

describe("the mail Parley sends", () => {
  it("verification: a link to /verify-email, valid 24 hours", () => {
    const message = verificationEmail({ to: "ada@example.com", displayName: "Ada", token, publicUrl })
    expect(message).toMatchObject({ to: "ada@example.com", tag: "email-verification" })
    expectLink(message, `https://parley.example.com/verify-email?token=${token}`)
    expect(message.text).toContain("24 hours")
  })

  it("password reset: a link to /reset-password, valid 30 minutes", () => {
    const message = passwordResetEmail({
      to: "ada@example.com",
      displayName: "Ada",
      token: Redacted.make(token),
      publicUrl: "http://localhost:8080"
    })
    expect(message.tag).toBe("password-reset")
    expectLink(message, `http://localhost:8080/reset-password?token=${token}`)
    expect(message.text).toContain("30 minutes")
  })

  it("invitation: a link to /accept-invitation, valid 7 days, naming workspace, inviter and role", () => {
    const message = invitationEmail({
      to: "bob@example.com",
      workspaceName: "Acme Support",
      inviterName: "Ada",
      role: "admin",
      token,
      publicUrl
    })
    expect(message.tag).toBe("invitation")
    expect(message.subject).toBe("Ada invited you to Acme Support on Parley")
    expectLink(message, `https://parley.example.com/accept-invitation?token=${token}`)
    expect(message.text).toContain("as an admin")
    expect(message.text).toContain("7 days")
  })

  it("tokens are URL-encoded in the query string", () => {
    const message = verificationEmail({ to: "ada@example.com", displayName: "Ada", token: "a+b/c=d&e", publicUrl })
    expect(message.links).toEqual(["https://parley.example.com/verify-email?token=a%2Bb%2Fc%3Dd%26e"])
  })

  it("names are escaped in the HTML and kept on one line in the subject", () => {
    const message = invitationEmail({
      to: "bob@example.com",
      workspaceName: "<b>Acme</b> & \"Co\"",
      inviterName: "<script>alert('x')</script>\r\nBcc: eve@example.com",
      role: "viewer",
      token,
      publicUrl
    })
    expect(message.html).not.toContain("<script>")
    expect(message.html).not.toContain("<b>Acme")
    expect(message.html).toContain("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;")
    expect(message.html).toContain("&lt;b&gt;Acme&lt;/b&gt; &amp; &quot;Co&quot;")
    expect(message.subject).not.toMatch(/[\r\n]/)
    const verification = verificationEmail({ to: "a@example.com", displayName: "<script>", token, publicUrl })
    expect(verification.html).toContain("Hello &lt;script&gt;,")
    expect(verification.html).not.toContain("<script>")
    expect(verification.text).toContain("Hello <script>,")
  })

  it("security notices say what happened and when, carry no link, and say what to do if it was not you", () => {
    const at = DateTime.unsafeMake("2025-03-04T05:06:07Z")
    const events = ["mfa-enabled", "mfa-disabled", "password-changed", "sessions-revoked"] as const
    const messages = events.map((event) =>
      securityNoticeEmail({ to: "ada@example.com", displayName: "<Ada>", event, at })
    )
    for (const message of messages) {
      expect(message.tag).toBe("security-notice")
      expect(message.links).toEqual([])
      expect(message.text).toContain("2025-03-04 05:06 UTC")
      expect(message.text).toMatch(/if it was not you, reset your password/i)
      expect(message.html).not.toContain("<a ")
      expect(message.html).toContain("&lt;Ada&gt;")
    }
    expect(new Set(messages.map((message) => message.subject)).size).toBe(events.length)
    expect(messages[0]!.text).toContain("two-factor authentication was turned on")
  })
})
