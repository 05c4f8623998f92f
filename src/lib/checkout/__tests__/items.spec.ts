import { buildGatewayItems, itemsTotal } from "../items"
import { toMinorUnits } from "../../sipay/amount"

describe("gateway items built from the cart", () => {
  it("sends lines at their unit price and adds shipping, summing to the total", () => {
    const items = buildGatewayItems({
      lines: [
        { title: "Cup", quantity: 2, total: "299.80" },
        { title: "Oil", quantity: 1, total: 420 },
      ],
      shippingTotal: "29.90",
      total: "749.70",
      fallbackName: "Order",
    })
    expect(items).toEqual([
      { name: "Cup", price: "149.90", quantity: 2, description: "" },
      { name: "Oil", price: "420.00", quantity: 1, description: "" },
      { name: "Kargo / Shipping", price: "29.90", quantity: 1, description: "" },
    ])
    expect(itemsTotal(items)).toBe(toMinorUnits("749.70"))
  })

  it("keeps a line that does not divide by its quantity as one unit", () => {
    const items = buildGatewayItems({ lines: [{ title: "Tea", quantity: 3, total: "100.00" }], total: "100.00", fallbackName: "Order" })
    expect(items).toEqual([{ name: "Tea x3", price: "100.00", quantity: 1, description: "" }])
  })

  it("puts a rounding remainder on the last line", () => {
    const items = buildGatewayItems({
      lines: [
        { title: "A", quantity: 1, total: "10.004" },
        { title: "B", quantity: 2, total: "20.00" },
      ],
      total: "30.01",
      fallbackName: "Order",
    })
    expect(itemsTotal(items)).toBe(3001n)
    expect(items[1]).toEqual({ name: "B x2", price: "20.01", quantity: 1, description: "" })
  })

  it("falls back to one line when credits exceed the lines", () => {
    const items = buildGatewayItems({ lines: [{ title: "A", quantity: 1, total: "5.00" }], total: "50.00", fallbackName: "Order cart_1" })
    expect(itemsTotal(items)).toBe(5000n)
    const lowered = buildGatewayItems({ lines: [{ title: "A", quantity: 1, total: "50.00" }], total: "0.50", fallbackName: "Order cart_1" })
    expect(itemsTotal(lowered)).toBe(50n)
  })

  it("refuses a zero total", () => {
    expect(() => buildGatewayItems({ lines: [], total: "0", fallbackName: "x" })).toThrow(/greater than zero/)
  })
})
