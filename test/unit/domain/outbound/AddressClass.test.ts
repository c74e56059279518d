import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { classifyAddress } from "../../../../src/domain/outbound/AddressClass.js"
import { formatIpAddress, parseCidr, parseIpAddress } from "../../../../src/domain/outbound/IpAddress.js"
import { addressRefusal, emptyAllowList, parseAllowList } from "../../../../src/domain/outbound/OutboundAllowList.js"

const table: ReadonlyArray<readonly [string, string]> = [
  ["8.8.8.8", "public"],
  ["1.1.1.1", "public"],
  ["93.184.216.34", "public"],
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["10.0.0.1", "private"],
  ["10.255.255.255", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["172.32.0.1", "public"],
  ["172.15.255.255", "public"],
  ["192.168.1.1", "private"],
  ["100.64.0.1", "shared"],
  ["100.127.255.255", "shared"],
  ["100.128.0.1", "public"],
  ["169.254.169.254", "link-local"],
  ["169.254.0.1", "link-local"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["255.255.255.255", "broadcast"],
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "reserved"],
  ["192.0.2.10", "reserved"],
  ["198.18.0.1", "reserved"],
  ["240.0.0.1", "reserved"],
  ["::1", "loopback"],
  ["::", "unspecified"],
  ["0:0:0:0:0:0:0:1", "loopback"],
  ["fe80::1", "link-local"],
  ["febf::1", "link-local"],
  ["fc00::1", "unique-local"],
  ["fd00::1", "unique-local"],
  ["fd12:3456:789a::1", "unique-local"],
  ["fec0::1", "unique-local"],
  ["ff02::1", "multicast"],
  ["2001:db8::1", "reserved"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved"], // Teredo
  ["2606:4700:4700::1111", "public"],
  ["2a00:1450:4001:81b::200e", "public"],
  // IPv4 inside IPv6: mapped, compatible, SIIT, NAT64, 6to4
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["::ffff:169.254.169.254", "link-local"],
  ["::ffff:a9fe:a9fe", "link-local"],
  ["::ffff:10.0.0.1", "private"],
  ["::ffff:8.8.8.8", "public"],
  ["::127.0.0.1", "loopback"],
  ["::10.1.2.3", "private"],
  ["::ffff:0:192.168.0.1", "private"],
  ["64:ff9b::10.0.0.1", "private"],
  ["64:ff9b::a9fe:a9fe", "link-local"],
  ["64:ff9b::8.8.8.8", "public"],
  ["64:ff9b:1::1", "reserved"],
  ["2002:7f00:1::", "loopback"],
  ["2002:c0a8:101::1", "private"],
  ["2002:808:808::1", "public"],
  ["[::1]", "loopback"],
  ["[::ffff:7f00:1]", "loopback"]
]

describe("the address classifier", () => {
  it.each(table)("%s is %s", (text, expected) => {
    const address = parseIpAddress(text)
    expect(address).toBeDefined()
    expect(classifyAddress(address!)).toBe(expected)
  })

  it("takes no host name or malformed text for an address", () => {
    for (
      const text of ["example.com", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "1::2::3", "12345::", "::g", ""]
    ) {
      expect(parseIpAddress(text), text).toBeUndefined()
    }
  })

  it("writes an address back as text", () => {
    expect(formatIpAddress(parseIpAddress("10.1.2.3")!)).toBe("10.1.2.3")
    expect(formatIpAddress(parseIpAddress("fd00::1")!)).toBe("fd00:0:0:0:0:0:0:1")
  })
})

describe("the allow-list", () => {
  const list = Either.getOrThrow(parseAllowList(" 127.0.0.0/8, fd00::/8 ,ollama.internal,*.corp.example "))

  it("opens the ranges and hosts it names, also for the mapped forms of its IPv4 ranges", () => {
    expect(addressRefusal(list, "x", parseIpAddress("127.0.0.1")!)).toBeUndefined()
    expect(addressRefusal(list, "x", parseIpAddress("::ffff:127.0.0.1")!)).toBeUndefined()
    expect(addressRefusal(list, "x", parseIpAddress("fd00::5")!)).toBeUndefined()
    expect(addressRefusal(list, "ollama.internal", parseIpAddress("10.0.0.7")!)).toBeUndefined()
    expect(addressRefusal(list, "api.corp.example", parseIpAddress("10.0.0.7")!)).toBeUndefined()
  })

  it("keeps refusing what it does not name", () => {
    expect(addressRefusal(list, "x", parseIpAddress("10.0.0.7")!)).toBe("private")
    expect(addressRefusal(list, "x", parseIpAddress("::1")!)).toBe("loopback")
    expect(addressRefusal(list, "corp.example", parseIpAddress("169.254.169.254")!)).toBe("link-local")
    expect(addressRefusal(list, "evilollama.internal", parseIpAddress("10.0.0.7")!)).toBe("private")
    expect(addressRefusal(emptyAllowList, "localhost", parseIpAddress("127.0.0.1")!)).toBe("loopback")
  })

  it("refuses an entry that is neither a range nor a host name, by its text", () => {
    expect(parseAllowList("10.0.0.0/33")).toEqual(Either.left(`"10.0.0.0/33" is neither a CIDR range nor a host name`))
    expect(Either.isLeft(parseAllowList("http://x"))).toBe(true)
    expect(parseAllowList("")).toEqual(Either.right(emptyAllowList))
    expect(parseCidr("::/0")).toEqual({ family: 6, base: 0n, bits: 0 })
  })
})
