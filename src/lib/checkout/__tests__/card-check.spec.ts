import { cardBin, checkCard, luhnValid } from "../card-check"

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0) // 26 November 2026, noon UTC

function card(number: string, expiry_month = "12", expiry_year = "2030") {
  return { number, expiry_month, expiry_year }
}

describe("the card's local check before any gateway call", () => {
  it("passes the sandbox's test cards, with spaces or dashes as typed, 2- or 4-digit years", () => {
    for (const number of ["4508034508034509", "5406 6754 0667 5403", "6501-7001-3908-2826", "9792090000000004"]) {
      expect(checkCard(card(number), NOW)).toBeNull()
    }
    expect(checkCard(card("4508034508034509", "1", "30"), NOW)).toBeNull()
  })

  it("refuses a number that fails Luhn, has the wrong length, or holds anything but digits", () => {
    for (const number of ["4508034508034508", "45080345", "45080345080345090000", "4508O34508034509", "", "4508034508034509; drop"]) {
      expect(checkCard(card(number), NOW)).toBe("card_number_invalid")
    }
  })

  it("refuses a month or year that cannot be, and a card past its expiry month", () => {
    expect(checkCard(card("4508034508034509", "13"), NOW)).toBe("card_expiry_invalid")
    expect(checkCard(card("4508034508034509", "0"), NOW)).toBe("card_expiry_invalid")
    expect(checkCard(card("4508034508034509", "12", "203"), NOW)).toBe("card_expiry_invalid")
    expect(checkCard(card("4508034508034509", "12", "2099"), NOW)).toBe("card_expiry_invalid")
    expect(checkCard(card("4508034508034509", "10", "2026"), NOW)).toBe("card_expired")
    expect(checkCard(card("4508034508034509", "12", "2025"), NOW)).toBe("card_expired")
  })

  it("lets a card be used to the end of its expiry month in every time zone", () => {
    expect(checkCard(card("4508034508034509", "11", "2026"), NOW)).toBeNull()
    // 1 December 02:00 in Istanbul is still 30 November in UTC-12: the gateway decides.
    expect(checkCard(card("4508034508034509", "11", "2026"), Date.UTC(2026, 10, 30, 23, 0, 0))).toBeNull()
    expect(checkCard(card("4508034508034509", "11", "2026"), Date.UTC(2026, 11, 1, 12, 0, 1))).toBe("card_expired")
  })

  it("agrees with Luhn on every single-digit change of a valid number", () => {
    const valid = "4508034508034509"
    expect(luhnValid(valid)).toBe(true)
    for (let i = 0; i < valid.length; i++) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === valid[i]) continue
        expect(luhnValid(valid.slice(0, i) + d + valid.slice(i + 1))).toBe(false)
      }
    }
  })

  it("takes the BIN as the first six digits", () => {
    expect(cardBin("4508 0345 0803 4509")).toBe("450803")
    expect(cardBin("45080")).toBeNull()
  })
})
