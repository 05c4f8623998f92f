import { auditArgsFromEnv, AUDIT_ARGS_ENV, environmentLanguage, parseAuditArgs } from "../args"

const NOW = new Date("2026-11-26T12:00:00Z")

describe("npx sipay-audit's arguments", () => {
  it("takes the day (two spellings), --json, --lang and --refresh; the language defaults to the environment's", () => {
    expect(parseAuditArgs(["--day", "2026-11-25"], {}, NOW)).toEqual({ day: "2026-11-25", json: false, language: "en", refresh: false })
    expect(parseAuditArgs(["--day=2026-11-26", "--json", "--lang", "tr", "--refresh"], {}, NOW)).toEqual({ day: "2026-11-26", json: true, language: "tr", refresh: true })
    expect(parseAuditArgs(["--day", "2026-11-26"], { LANG: "tr_TR.UTF-8" }, NOW).language).toBe("tr")
    expect(parseAuditArgs(["--day", "2026-11-26", "--lang=en"], { LANG: "tr_TR.UTF-8" }, NOW).language).toBe("en")
    expect(environmentLanguage({ LC_ALL: "en_US.UTF-8", LANG: "tr_TR.UTF-8" })).toBe("en")
    expect(parseAuditArgs(["--help"], {}, NOW)).toMatchObject({ help: true })
  })

  it("refuses a missing, malformed, impossible or future day, an unknown language and unknown arguments (bad usage)", () => {
    expect(() => parseAuditArgs([], {}, NOW)).toThrow("--day YYYY-MM-DD is required")
    expect(() => parseAuditArgs(["--day"], {}, NOW)).toThrow("--day needs a value")
    expect(() => parseAuditArgs(["--day", "--json"], {}, NOW)).toThrow("--day needs a value")
    expect(() => parseAuditArgs(["--day", "26/11/2026"], {}, NOW)).toThrow("--day: the day must be written YYYY-MM-DD")
    expect(() => parseAuditArgs(["--day", "2026-02-29"], {}, NOW)).toThrow("--day: 2026-02-29 is not a calendar day")
    expect(() => parseAuditArgs(["--day", "2026-11-27"], {}, NOW)).toThrow("after today in Istanbul")
    expect(() => parseAuditArgs(["--day", "2026-11-26", "--lang", "de"], {}, NOW)).toThrow("--lang must be en or tr")
    expect(() => parseAuditArgs(["--day", "2026-11-26", "--yes"], {}, NOW)).toThrow('unknown argument "--yes"')
    expect(() => parseAuditArgs(["--day", "2026-11-26", "--json=1"], {}, NOW)).toThrow('unknown argument "--json=1"')
  })

  it("reach the exec script through the environment", () => {
    const args = parseAuditArgs(["--day", "2026-11-26", "--json"], {}, NOW)
    expect(auditArgsFromEnv({ [AUDIT_ARGS_ENV]: JSON.stringify(args) })).toEqual(args)
    expect(() => auditArgsFromEnv({})).toThrow("run the audit with npx sipay-audit")
  })
})
