import { escapeHtml, type MailMessage, oneLine } from "../identity/Emails.js"
import type { Lead } from "./Lead.js"

/** The mail that tells the operator about a new lead: every field the visitor gave, escaped in the HTML. */
export const leadMail = (to: string, lead: Omit<typeof Lead.Type, "createdAt">): MailMessage => {
  const facts: ReadonlyArray<readonly [string, string]> = [
    ["Kind", lead.kind],
    ["Name", lead.name],
    ["Email", lead.email],
    ["Company", lead.company],
    ["Phone", lead.phone ?? ""],
    ["Marketing email", lead.marketingOptIn ? "yes" : "no"],
    ["Page", lead.pageUrl ?? ""],
    ["Referrer", lead.referrer ?? ""],
    ...Object.entries(lead.utm ?? {}).map(([key, value]): readonly [string, string] => [`utm_${key}`, value ?? ""]),
    ["Lead id", lead.id]
  ]
  const shown = facts.filter(([, value]) => value !== "")
  const text = [...shown.map(([key, value]) => `${key}: ${value}`), "", lead.message].join("\n")
  const html = [
    "<table>",
    ...shown.map(([key, value]) => `<tr><th align="left">${escapeHtml(key)}</th><td>${escapeHtml(value)}</td></tr>`),
    "</table>",
    ...lead.message.split("\n").map((line) => `<p>${escapeHtml(line)}</p>`)
  ].join("\n")
  return {
    to,
    subject: oneLine(`New ${lead.kind} request: ${lead.name}, ${lead.company}`).slice(0, 200),
    text,
    html,
    tag: "lead",
    links: []
  }
}
