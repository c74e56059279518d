/**
 * `GET /verify-email`, `/reset-password` and `/accept-invitation`: the pages
 * the mailed links open (`LinkPages`), served beside the contract without
 * authentication (the token is in the link, and only the page's script reads
 * it).
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { MAIL_LINK_PATHS } from "../../domain/identity/Emails.js"
import { acceptInvitationPage, resetPasswordPage, verifyEmailPage } from "./LinkPages.js"

const pages = [
  { name: "verifyEmail", path: MAIL_LINK_PATHS.verifyEmail, html: verifyEmailPage },
  { name: "resetPassword", path: MAIL_LINK_PATHS.resetPassword, html: resetPasswordPage },
  { name: "acceptInvitation", path: MAIL_LINK_PATHS.acceptInvitation, html: acceptInvitationPage }
] as const

/** The pages' routes, as the route table lists them (for 405 answers). */
export const linkPageRoutes = pages.map(({ name, path }) => ({ method: "GET", path, group: "pages", name } as const))

/** Adds the pages' routes to the API's router. */
export const LinkPagesLive = HttpApiBuilder.Router.use((router) =>
  Effect.forEach(pages, ({ html, path }) => {
    // One body for every answer: the security headers work out its policy (the script's hash) once.
    const body = new TextEncoder().encode(html)
    return router.get(
      path,
      Effect.sync(() =>
        HttpServerResponse.uint8Array(body, {
          contentType: "text/html; charset=utf-8",
          // The page holds no token or account data (its script reads the token from the address).
          headers: { "cache-control": "no-cache" }
        })
      )
    )
  }, { discard: true })
)
