import { feeRuleFor, installmentFeeMinor, installmentFeeRulesProblem, installmentPrice } from "../installment-fees"
import { installmentTable } from "../installment-table"

describe("installment fees", () => {
  it("absorb is the default, and one installment never carries a fee", () => {
    expect(feeRuleFor({}, 3)).toEqual({ mode: "absorb" })
    expect(feeRuleFor({ "1": { mode: "own", percentage: 5, fixed: 0 } }, 1)).toEqual({ mode: "absorb" })
    expect(installmentFeeMinor("325.40", { mode: "absorb" })).toBe(0n)
  })

  it("the merchant's own rate: percentage half up to the kuruş, plus the fixed part", () => {
    // 325.40 x 3.07 % = 9.98978 -> 9.99; + 0.01 fixed
    expect(installmentFeeMinor("325.40", { mode: "own", percentage: 3.07, fixed: 0.01 })).toBe(1000n)
    // 0.50 x 1 % = 0.005 -> 0.01 (half up)
    expect(installmentFeeMinor("0.50", { mode: "own", percentage: 1, fixed: 0 })).toBe(1n)
  })

  it("the gateway's rate: getpos's payable_amount minus the amount; no row, no fee to compute", () => {
    expect(installmentFeeMinor("325.40", { mode: "gateway" }, "335.40")).toBe(1000n)
    expect(installmentFeeMinor("325.40", { mode: "gateway" }, 325.4)).toBe(0n)
    expect(installmentFeeMinor("325.40", { mode: "gateway" }, null)).toBeNull()
  })

  it("per-installment amounts and total: 3 x 111,80 = 335,40 (+10,00)", () => {
    expect(installmentPrice("325.40", 3, 1000n)).toEqual({ installments: 3, fee: "10.00", total: "335.40", per_installment: "111.80" })
    expect(installmentPrice("100", 3, 0n)).toEqual({ installments: 3, fee: "0.00", total: "100.00", per_installment: "33.33" })
  })

  it("rules from the admin are checked: counts 2-12, known modes, rates with 2 decimals", () => {
    expect(installmentFeeRulesProblem({ "3": { mode: "gateway" }, "6": { mode: "own", percentage: 5.5, fixed: 1.25 } })).toBeNull()
    expect(installmentFeeRulesProblem({ "1": { mode: "gateway" } })).toMatch(/not an installment count/)
    expect(installmentFeeRulesProblem({ "3": { mode: "free" } })).toMatch(/mode must be/)
    expect(installmentFeeRulesProblem({ "3": { mode: "own", percentage: 1.234, fixed: 0 } })).toMatch(/percentage/)
    expect(installmentFeeRulesProblem({ "3": { mode: "own", percentage: 1, fixed: -1 } })).toMatch(/fixed/)
  })

  it("the product-page table: per card program, capped at the store's maximum, each count by its rule", () => {
    const cell = (cardProgram: string, installment: number, userPercentage: number | null) => ({ installment, cardProgram, title: cardProgram === "BONUS" ? "Bonus" : "World", merchantPercentage: 1.79, merchantFixed: 0, userPercentage, userFixed: 0 })
    const table = installmentTable({
      amount: "325.40",
      rules: { "3": { mode: "gateway" }, "6": { mode: "own", percentage: 10, fixed: 0 } },
      maxInstallments: 6,
      commissions: [cell("BONUS", 1, 0), cell("BONUS", 3, 3.07), cell("BONUS", 6, 5.99), cell("BONUS", 9, 8.85), cell("WORLD", 1, 0), cell("WORLD", 3, null), cell("WORLD", 2, 1.95)],
    })
    expect(table).toEqual([
      { card_program: "BONUS", title: "Bonus", options: [
        { installments: 1, fee: "0.00", total: "325.40", per_installment: "325.40" },
        { installments: 3, fee: "9.99", total: "335.39", per_installment: "111.80" },
        { installments: 6, fee: "32.54", total: "357.94", per_installment: "59.66" },
      ] },
      { card_program: "WORLD", title: "World", options: [
        { installments: 1, fee: "0.00", total: "325.40", per_installment: "325.40" },
        // 2 is absorbed by the store's rules (no rule for 2)
        { installments: 2, fee: "0.00", total: "325.40", per_installment: "162.70" },
      ] },
    ])
  })
})
