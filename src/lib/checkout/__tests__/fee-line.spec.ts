import { amountWithoutFeeLine, FEE_LINE_KEY, feeLineIsCurrent } from "../fee-line"

const product = { id: "item_1", variant_id: "variant_1", metadata: null, total: 100, unit_price: 50, quantity: 2 }
const feeLine = (fee: number, installments: number, quantity = 1) => ({
  id: "item_fee",
  variant_id: null,
  metadata: { [FEE_LINE_KEY]: { installments, fee: fee.toFixed(2), base: "100.00", rule: "own" } },
  total: fee * quantity,
  unit_price: fee,
  quantity,
})

describe("the installment fee line of a cart", () => {
  it("prices the fee on the cart without its fee line", () => {
    expect(amountWithoutFeeLine({ total: 100, items: [product] })).toBe(10000n)
    expect(amountWithoutFeeLine({ total: 103.5, items: [product, feeLine(3.5, 3)] })).toBe(10000n)
    // A variant's line with the same metadata key is not the fee line.
    expect(amountWithoutFeeLine({ total: 103.5, items: [product, { ...feeLine(3.5, 3), variant_id: "variant_2" }] })).toBe(10350n)
  })

  it("is current only when it is one line of that fee for that count, or absent when there is no fee", () => {
    expect(feeLineIsCurrent({ total: 100, items: [product] }, 0n, 1)).toBe(true)
    expect(feeLineIsCurrent({ total: 103.5, items: [product, feeLine(3.5, 3)] }, 0n, 1)).toBe(false)
    expect(feeLineIsCurrent({ total: 103.5, items: [product, feeLine(3.5, 3)] }, 350n, 3)).toBe(true)
    expect(feeLineIsCurrent({ total: 103.5, items: [product, feeLine(3.5, 3)] }, 350n, 6)).toBe(false)
    expect(feeLineIsCurrent({ total: 103.5, items: [product, feeLine(3.5, 3)] }, 400n, 3)).toBe(false)
    expect(feeLineIsCurrent({ total: 107, items: [product, feeLine(3.5, 3, 2)] }, 350n, 3)).toBe(false)
    expect(feeLineIsCurrent({ total: 100, items: [product] }, 350n, 3)).toBe(false)
  })
})
