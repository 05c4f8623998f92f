import { RETURN_MESSAGES, returnLocale } from "../return-messages"

describe("the 3D return's shopper messages", () => {
  it("follow the shopper's browser: Turkish when it ranks Turkish above English, else English", () => {
    expect(returnLocale("tr-TR,tr;q=0.9,en;q=0.8")).toBe("tr")
    expect(returnLocale("en-US,en;q=0.9,tr;q=0.8")).toBe("en")
    expect(returnLocale("de-DE,tr;q=0.5")).toBe("tr")
    expect(returnLocale("en;q=0.3,tr;q=0.7")).toBe("tr")
    expect(returnLocale("tr;q=0")).toBe("en")
    expect(returnLocale("*")).toBe("en")
    expect(returnLocale(undefined)).toBe("en")
  })

  it("say every message in both languages, differently", () => {
    expect(Object.keys(RETURN_MESSAGES.tr).sort()).toEqual(Object.keys(RETURN_MESSAGES.en).sort())
    for (const key of Object.keys(RETURN_MESSAGES.en) as (keyof typeof RETURN_MESSAGES.en)[]) {
      expect(RETURN_MESSAGES.tr[key]).not.toBe(RETURN_MESSAGES.en[key])
    }
    expect(RETURN_MESSAGES.tr.failed).toBe("Kartla ödeme gerçekleşmedi.")
  })
})
