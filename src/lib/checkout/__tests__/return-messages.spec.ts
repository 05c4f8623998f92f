import { RETURN_PAGE_WORDS, returnLocale } from "../return-messages"

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

  it("say the page's own words in both languages, differently", () => {
    expect(Object.keys(RETURN_PAGE_WORDS.tr).sort()).toEqual(Object.keys(RETURN_PAGE_WORDS.en).sort())
    for (const key of Object.keys(RETURN_PAGE_WORDS.en) as (keyof typeof RETURN_PAGE_WORDS.en)[]) {
      expect(RETURN_PAGE_WORDS.tr[key]).not.toBe(RETURN_PAGE_WORDS.en[key])
    }
  })
})
