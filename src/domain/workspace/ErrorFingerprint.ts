/**
 * The fingerprint of a reported error (`ErrorReport.fingerprint`): equal for
 * repeats of one error, whatever ids, numbers or trace ids they carry. Apart
 * from `ErrorReport.ts`, so the contract imports no Node module.
 */
import * as Crypto from "node:crypto"
import type { ErrorReport } from "./ErrorReport.js"

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi
const HEX = /\b[0-9a-f]{8,}\b/gi
const NUMBER = /\d+(?:\.\d+)?/g

/** A message or route with its ids and numbers blanked: `Assistant 0193… not found (404)` -> `Assistant <id> not found (<n>)`. */
export const blanked = (text: string): string =>
  text.replace(UUID, "<id>").replace(HEX, "<id>").replace(NUMBER, "<n>").replace(/\s+/g, " ").trim()

/** The first line of a stack that names a frame (`at f (file:1:2)` or `f@file:1:2`), trimmed; "" without one. */
export const topFrame = (stack: string | null): string =>
  (stack ?? "").split("\n").map((line) => line.trim()).find((line) => /^at\s|@/.test(line)) ?? ""

/** Hex SHA-256 of the error's name, its blanked message, its top stack frame and its blanked route. */
export const errorFingerprint = (
  report: Pick<typeof ErrorReport.jsonCreate.Type, "errorName" | "message" | "stack" | "route">
): string =>
  Crypto.createHash("sha256")
    .update(
      JSON.stringify([
        report.errorName ?? "",
        blanked(report.message),
        topFrame(report.stack),
        blanked(report.route ?? "")
      ])
    )
    .digest("hex")
