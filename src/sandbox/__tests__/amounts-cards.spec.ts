import { formatAmount, parseAmount } from "../core/amounts"
import { formatIstanbul } from "../core/clock"
import { luhnValid, maskCard, TEST_CARDS } from "../cards"

describe("sandbox: amounts, time and cards", () => {
  it.each([
    ["5", 500], ["5.00", 500], ["5.5", 550], ["10.50", 1050], ["0.1", 10], [10.5, 1050], [20, 2000], ["1.230", 123],
  ])("parses %p to %d minor units", (input, minor) => {
    expect(parseAmount(input)).toBe(minor)
  })

  it.each(["", "abc", "-1", "1.234", "1,5", null, undefined, {}, NaN])("refuses %p", (input) => {
    expect(parseAmount(input)).toBeNull()
  })

  it.each([[2000, "20"], [10, "0.1"], [1050, "10.5"], [15075, "150.75"], [80000, "800"], [1, "0.01"]])("formats %d the PHP way as %s", (minor, text) => {
    expect(formatAmount(minor)).toBe(text)
  })

  it("formats Istanbul time (UTC+3)", () => {
    expect(formatIstanbul(Date.UTC(2026, 0, 31, 22, 30, 5))).toBe("2026-02-01 01:30:05")
  })

  it("has only Luhn-valid, distinct-BIN test cards and masks 6+****+4", () => {
    for (const card of TEST_CARDS) expect(luhnValid(card.number)).toBe(true)
    expect(new Set(TEST_CARDS.map((c) => c.number.slice(0, 6))).size).toBe(TEST_CARDS.length)
    expect(maskCard("4508034508034509")).toBe("450803****4509")
  })
})
