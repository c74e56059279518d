/**
 * The hostile values the fuzz suite plants: text Parley cannot store (NUL,
 * lone surrogates), text that is merely unpleasant (huge, right-to-left,
 * combining marks), patterns that make a backtracking engine take exponential
 * time (and constructs a linear-time engine refuses), JSONata that calls
 * them, and the odd path segments, query values and header values a client
 * can put on the wire.
 */

/** Patterns a backtracking engine chokes on, and constructs a linear-time engine cannot run. */
export const HOSTILE_PATTERNS: ReadonlyArray<string> = [
  "(a+)+$",
  "(a|a)*b",
  "(a|aa)+$",
  "(.*a){12}",
  "(\\w+\\s?)*$",
  "^(([a-z])+.)+[A-Z]([a-z])+$",
  "(x+x+)+y",
  "^(\\d+)*$",
  "(a*)*b",
  "([a-zA-Z]+)*@",
  "(a)\\1+$",
  "(?<x>a+)\\k<x>",
  "(?=a)(a+)+$",
  "(?!b)(a+)+$",
  "(?<=a)b",
  "(?<!a)b",
  "((((((((((a*)*)*)*)*)*)*)*)*)*)*b",
  "a{0,99999}{0,99999}",
  "[",
  "(",
  "\\",
  "(?",
  "*",
  "a{99999999999}",
  "\\p{Nope}",
  ".".repeat(5_000)
]

/** JSONata expressions that run hostile patterns, or are hostile themselves. */
export const HOSTILE_EXPRESSIONS: ReadonlyArray<string> = [
  "$match(\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\", /(a+)+$/)",
  "$contains(vars.text, /(.*a){12}y/)",
  "$replace(\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\", /(a|aa)+$/, \"\")",
  "$split(\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\", /(a*)*b/)",
  "$match($string(vars), /(?=a)(a+)+$/)",
  "$count([1..10000000])",
  "[1..10000000].($ * 2)",
  "($f := function($n) { $f($n + 1) }; $f(0))",
  "$sum([1..9999999])",
  "$string($)",
  "$eval(\"1+1\")",
  "(((((((((((((((((((((((((((((((((((((((1)))))))))))))))))))))))))))))))))))))))",
  "vars.a.b.c.d.e.f.g.h",
  "$$.constructor.constructor('return process')()",
  "{",
  "/(/",
  ""
]

/** Text worth sending where a pattern runs: long runs that almost match. */
export const HOSTILE_INPUTS: ReadonlyArray<string> = [
  "a".repeat(40) + "!",
  "a".repeat(3_999) + "!",
  "x".repeat(64),
  "1".repeat(64) + "a",
  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@",
  "a ".repeat(1_000) + "!"
]

/** Text Parley cannot store: it must be refused with a typed 400 wherever it appears. */
export const UNSTORABLE_TEXT: ReadonlyArray<string> = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "x\ud83dy",
  "\ude00\ud83d",
  "\u0000\ud800"
]

/** Text that is legal but unpleasant to handle. */
export const AWKWARD_TEXT: ReadonlyArray<string> = [
  "",
  " ",
  "\t\n\r",
  "\u202eevil\u202c",
  "e\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301",
  "🙂👩‍👩‍👧‍👦🏳️‍🌈",
  "\u2028\u2029",
  "\ufeff",
  "\u200b\u200d",
  "'; DROP TABLE users; --",
  "{{vars.x}}{{#each}}",
  "<script>alert(1)</script>",
  "../../../../etc/passwd",
  "%00%ff",
  "${process.exit()}",
  "__proto__",
  "constructor",
  "NaN",
  "-0",
  "1e309",
  "ＡＢＣ",
  "İstanbul ß ﬃ",
  "\u{10ffff}"
]

/** Path segments a client may send in place of an id. Already percent-encoded where they must be. */
export const ODD_PATH_SEGMENTS: ReadonlyArray<string> = [
  "..",
  "%2e%2e",
  "%2E%2E%2F%2E%2E",
  ".",
  "%00",
  "a%00b",
  "%ED%A0%80",
  "%FF%FE",
  "%C0%AF",
  "%",
  "%zz",
  "%2F",
  "a;b",
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
  "0",
  "-1",
  "99999999999999999999999999",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  encodeURIComponent("ü🙂名前"),
  encodeURIComponent("\u202e"),
  "x".repeat(300),
  "x".repeat(20_000),
  "%20",
  "%0d%0aSet-Cookie:%20x=1"
]

/** Values for a query parameter. Already percent-encoded. */
export const ODD_QUERY_VALUES: ReadonlyArray<string> = [
  "",
  "-1",
  "0",
  "1.5",
  "1e400",
  "99999999999999999999999999999",
  "NaN",
  "Infinity",
  "true",
  "null",
  "%00",
  "%ED%A0%80",
  "%FF",
  "%",
  "abc",
  "2026-13-45T99:99:99Z",
  encodeURIComponent("(a+)+$"),
  "x".repeat(50_000),
  encodeURIComponent("🙂"),
  "a%26b%3Dc"
]

/** Values for a header a route reads. Node's client refuses only NUL, CR and LF, and characters past U+00FF. */
export const ODD_HEADER_VALUES: ReadonlyArray<string> = [
  "",
  " ",
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "-1",
  "0",
  "1e400",
  "99999999999999999999999",
  "W/\"1\"",
  "*",
  "\u00ff\u00fe",
  "x".repeat(8_000),
  "a, b, c"
]

/** Client addresses an `X-Forwarded-For` may claim. */
export const ODD_FORWARDED_FOR: ReadonlyArray<string> = [
  "unknown",
  "",
  "999.999.999.999",
  "::1",
  "2001:db8::1",
  "[2001:db8::1]:80",
  "198.51.100.7:1234",
  "198.51.100.7, 203.0.113.9",
  "_hidden",
  "x".repeat(2_000),
  "1.2.3.4%00"
]
