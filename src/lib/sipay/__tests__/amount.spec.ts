import { amountsEqual, formatAmount, fromMinorUnits, toMinorUnits } from "../amount"

describe("amount formatting", () => {
  it.each([
    ["10.5", "10.50"],
    ["1234", "1234.00"],
    ["0.1", "0.10"],
    ["  7.00 ", "7.00"],
    ["1e3", "1000.00"],
    ["12345678901234567890.12", "12345678901234567890.12"],
    [".5", "0.50"],
  ])("formats the string %p as %p", (input, expected) => {
    expect(formatAmount(input)).toBe(expected)
  })

  it.each([
    [10.5, "10.50"],
    [1234, "1234.00"],
    [0.1 + 0.2, "0.30"],
    [1e-7, "0.00"],
    [1e21, "1000000000000000000000.00"],
  ])("formats the number %p as %p", (input, expected) => {
    expect(formatAmount(input)).toBe(expected)
  })

  it("formats a Medusa BigNumber-like value from raw.value, not through a float", () => {
    expect(formatAmount({ raw: { value: "10.456" }, toString: () => "999" })).toBe("10.46")
    expect(formatAmount({ raw: { value: 20 }, toString: () => "999" })).toBe("20.00")
  })

  it("formats a raw amount as Medusa passes it to refunds ({ value, precision })", () => {
    expect(formatAmount({ value: "100", precision: 20 } as never)).toBe("100.00")
    expect(toMinorUnits({ value: "12.345", precision: 20 } as never)).toBe(1235n)
  })

  it("formats any value with a decimal toString (bignumber.js)", () => {
    expect(formatAmount({ toString: () => "3.335" })).toBe("3.34")
  })

  it.each([
    ["1.005", "1.01"],
    ["1.004999", "1.00"],
    ["2.675", "2.68"],
    ["0.995", "1.00"],
    ["99.999", "100.00"],
  ])("rounds %p half-up to %p", (input, expected) => {
    expect(formatAmount(input)).toBe(expected)
  })

  it.each([
    ["NaN", NaN],
    ["Infinity", Infinity],
    ["-Infinity", -Infinity],
    ["a negative number", -1],
    ["a negative string", "-0.01"],
    ["a non-numeric string", "ten"],
    ["an empty string", ""],
    ["a string with a currency", "10 TRY"],
    ["a comma decimal", "10,50"],
    ["a plain object", {} as never],
  ])("rejects %s with a clear error", (_, input) => {
    expect(() => formatAmount(input as never)).toThrow(/Invalid amount/)
  })
})

describe("minor units", () => {
  it("reads the gateway's PHP-style totals", () => {
    expect(toMinorUnits("20")).toBe(2000n)
    expect(toMinorUnits("0.1")).toBe(10n)
    expect(toMinorUnits(20)).toBe(2000n)
    expect(toMinorUnits("5.00")).toBe(500n)
  })

  it("formats minor units back to 2 decimals", () => {
    expect(fromMinorUnits(1050n)).toBe("10.50")
    expect(fromMinorUnits(5n)).toBe("0.05")
    expect(fromMinorUnits(0n)).toBe("0.00")
  })

  it("compares \"20\", \"20.00\" and 20 as the same amount", () => {
    expect(amountsEqual("20", "20.00")).toBe(true)
    expect(amountsEqual("20.00", 20)).toBe(true)
    expect(amountsEqual({ raw: { value: "20.0" }, toString: () => "20" }, "20")).toBe(true)
    expect(amountsEqual("20.01", 20)).toBe(false)
  })
})
