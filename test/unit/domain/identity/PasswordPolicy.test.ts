import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { passwordWeakness } from "../../../../src/domain/identity/PasswordPolicy.js"

const email = "jane.doe@example.com"

describe("passwordWeakness", () => {
  it("finds a password on the common list, ignoring case", () => {
    expect(passwordWeakness("qwertyuiop123", email)).toEqual(Option.some("common"))
    expect(passwordWeakness("1qaz2wsx3edc", email)).toEqual(Option.some("common"))
    expect(passwordWeakness("LeaveMeAlone", email)).toEqual(Option.some("common"))
  })

  it("finds a common password with digits appended", () => {
    expect(passwordWeakness("password2024", email)).toEqual(Option.some("common"))
    expect(passwordWeakness("Sunshine1234567", email)).toEqual(Option.some("common"))
    expect(passwordWeakness("123456789" + "012", email)).toEqual(Option.some("common"))
  })

  it("does not stretch 'digits appended' to other suffixes or infixes", () => {
    expect(passwordWeakness("password2024!", email)).toEqual(Option.none())
    expect(passwordWeakness("my password is long", email)).toEqual(Option.none())
  })

  it("finds the email's local part, ignoring case, and the part before a +tag", () => {
    expect(passwordWeakness("xx-Jane.Doe-xx-2024", email)).toEqual(Option.some("contains-email"))
    expect(passwordWeakness("horse jane.doe battery", "JANE.DOE@example.com")).toEqual(
      Option.some("contains-email")
    )
    expect(passwordWeakness("margaret is my name", "margaret+parley@example.com")).toEqual(
      Option.some("contains-email")
    )
  })

  it("ignores a local part shorter than 4 characters", () => {
    expect(passwordWeakness("jo jo jo jo jo jo", "jo@example.com")).toEqual(Option.none())
    expect(passwordWeakness("bob builds bridges", "bob@example.com")).toEqual(Option.none())
  })

  it("accepts a long password with no composition rules", () => {
    expect(passwordWeakness("correct horse battery staple", email)).toEqual(Option.none())
    expect(passwordWeakness("alllowercaseletters", email)).toEqual(Option.none())
    expect(passwordWeakness("vélo rouge sous la pluie", email)).toEqual(Option.none())
  })

  it("refuses a password made of context words and the user's names with little else", () => {
    expect(passwordWeakness("Parley2024!", email)).toEqual(Option.some("context-word"))
    expect(passwordWeakness("workspace-owner-admin", email)).toEqual(Option.some("context-word"))
    expect(passwordWeakness("ParleyAssistant#1", email)).toEqual(Option.some("context-word"))
    expect(passwordWeakness("parley + sunshine", email)).toEqual(Option.some("context-word"))
    expect(passwordWeakness("Acme Robotics 2025", email, ["Acme Robotics"])).toEqual(Option.some("context-word"))
    expect(passwordWeakness("margaret hamilton!!", email, ["Margaret Hamilton"])).toEqual(
      Option.some("context-word")
    )
  })

  it("accepts a password that merely contains a context word among enough else", () => {
    expect(passwordWeakness("parley is my favourite tool", email)).toEqual(Option.none())
    expect(passwordWeakness("Parley-8f3k2j9x", email)).toEqual(Option.none())
    expect(passwordWeakness("acme robots sing at dawn", email, ["Acme Robotics"])).toEqual(Option.none())
  })
})
