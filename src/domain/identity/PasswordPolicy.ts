/**
 * What makes a long-enough password still too easy to guess. ASVS 5 forbids
 * composition rules (upper case, digits, symbols); it asks instead that a new
 * password be checked against common and breached passwords and against the
 * account's own details.
 */
import { dictionary } from "@zxcvbn-ts/language-common"
import { Option } from "effect"
import type { WeakPasswordReason } from "./Password.js"

/** zxcvbn's list of common passwords (about 49,000, all lower case), loaded once. */
const commonPasswords: ReadonlySet<string> = new Set(dictionary["passwords-common"])

/**
 * Words of this context that a password must not be made of (ASVS 6.1.2): the
 * product, its roles and its objects. A password built only from these, the
 * user's own names and a few more characters is refused; one that merely
 * contains a word among others ("parley is my favourite tool") is not.
 */
export const CONTEXT_WORDS: ReadonlyArray<string> = [
  "parley",
  "workspace",
  "assistant",
  "chatbot",
  "agent",
  "owner",
  "admin",
  "administrator",
  "developer",
  "editor",
  "viewer"
]

/** How many letters and digits must remain once context words are taken out. */
const MIN_BEYOND_CONTEXT = 8

/** The shortest email local part worth looking for in a password; shorter ones match too much by chance. */
const MIN_LOCAL_PART = 4

/** The password, case-insensitively, is a common one, or a common one with digits appended ("password2024"). */
const isCommon = (lower: string): boolean => {
  if (commonPasswords.has(lower)) return true
  const digits = /\d+$/.exec(lower)
  if (digits === null) return false
  // Every cut inside the trailing digits, so "123456" + "789012" is found as well as "monkey" + "123456".
  for (let cut = digits.index; cut < lower.length; cut++) {
    if (cut > 0 && commonPasswords.has(lower.slice(0, cut))) return true
  }
  return false
}

/** The local part of the address and, for `jane+tag@…`, the part before the tag. */
const localParts = (email: string): ReadonlyArray<string> => {
  const at = email.lastIndexOf("@")
  const local = (at === -1 ? email : email.slice(0, at)).normalize("NFC").toLowerCase()
  const untagged = local.split("+")[0] ?? local
  return [local, untagged].filter((part) => part.length >= MIN_LOCAL_PART)
}

/** The words of a name worth looking for (4 characters or more), lower case. */
const wordsOf = (name: string): ReadonlyArray<string> =>
  name.normalize("NFC").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 4)

/**
 * Whether the password is made of context words (and the user's own names)
 * and little else: what remains, letters and digits only, is short or common.
 */
const isContextual = (lower: string, personal: ReadonlyArray<string>): boolean => {
  const words = [...CONTEXT_WORDS, ...personal].sort((a, b) => b.length - a.length)
  let rest = lower
  for (const word of words) rest = rest.split(word).join("")
  if (rest === lower) return false
  const remainder = rest.replace(/[^\p{L}\p{N}]+/gu, "")
  return remainder.length < MIN_BEYOND_CONTEXT || isCommon(remainder)
}

/**
 * Why `password` is too easy to guess for the account `email`, if it is:
 * `common` when it is on the common-password list (ignoring case, and with
 * any digits appended), `contains-email` when it contains the email's local
 * part (4 characters or more, ignoring case), `context-word` when it is made
 * of {@link CONTEXT_WORDS} and the user's own names (`names`: display and
 * workspace names) with fewer than 8 letters or digits besides, or a common
 * password besides. Pure, and cheap enough for every signup.
 */
export const passwordWeakness = (
  password: string,
  email: string,
  names: ReadonlyArray<string> = []
): Option.Option<WeakPasswordReason> => {
  const lower = password.normalize("NFC").toLowerCase()
  if (isCommon(lower)) return Option.some("common")
  if (localParts(email).some((part) => lower.includes(part))) return Option.some("contains-email")
  if (isContextual(lower, names.flatMap(wordsOf))) return Option.some("context-word")
  return Option.none()
}
