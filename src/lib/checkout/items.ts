import { AmountInput, fromMinorUnits, toMinorUnits } from "../sipay/amount"

export type CartLine = { title: string; quantity: number; total: AmountInput; description?: string | null }
export type GatewayItem = { name: string; price: string; quantity: number; description: string }

const SHIPPING_NAME = "Kargo / Shipping"
const NAME_LIMIT = 100

/**
 * The items sent to the gateway, built from the cart server-side: lines after discounts (tax
 * included where the total includes it), then shipping; they sum exactly to `total`, any rounding
 * remainder on the last line (docs/contracts.md, Money).
 */
export function buildGatewayItems(input: {
  lines: CartLine[]
  shippingTotal?: AmountInput | null
  total: AmountInput
  fallbackName: string
}): GatewayItem[] {
  const total = toMinorUnits(input.total)
  if (total <= 0n) {
    throw new Error("the amount to pay must be greater than zero")
  }
  const entries: { name: string; unit: bigint; quantity: number; description: string }[] = []
  for (const line of input.lines) {
    const lineTotal = toMinorUnits(line.total)
    const quantity = Math.max(1, Math.trunc(line.quantity))
    if (lineTotal <= 0n) {
      continue
    }
    // A line whose total does not divide by its quantity goes as one unit, so nothing is rounded away.
    const divides = lineTotal % BigInt(quantity) === 0n
    entries.push({
      name: truncate(divides ? line.title : `${line.title} x${quantity}`),
      unit: divides ? lineTotal / BigInt(quantity) : lineTotal,
      quantity: divides ? quantity : 1,
      description: truncate(line.description ?? ""),
    })
  }
  const shipping = input.shippingTotal === null || input.shippingTotal === undefined ? 0n : toMinorUnits(input.shippingTotal)
  if (shipping > 0n) {
    entries.push({ name: SHIPPING_NAME, unit: shipping, quantity: 1, description: "" })
  }
  const sum = entries.reduce((acc, entry) => acc + entry.unit * BigInt(entry.quantity), 0n)
  const remainder = total - sum
  if (remainder !== 0n && entries.length) {
    const last = entries[entries.length - 1]
    const lastTotal = last.unit * BigInt(last.quantity) + remainder
    if (lastTotal > 0n) {
      entries[entries.length - 1] = { ...last, name: last.quantity > 1 ? truncate(`${last.name} x${last.quantity}`) : last.name, unit: lastTotal, quantity: 1 }
    } else {
      entries.length = 0
    }
  }
  if (!entries.length) {
    // Credits or discounts larger than a line: one line for the whole amount still sums exactly.
    return [{ name: truncate(input.fallbackName), price: fromMinorUnits(total), quantity: 1, description: "" }]
  }
  return entries.map((entry) => ({
    name: entry.name,
    price: fromMinorUnits(entry.unit),
    quantity: entry.quantity,
    description: entry.description,
  }))
}

export function itemsTotal(items: GatewayItem[]): bigint {
  return items.reduce((acc, item) => acc + toMinorUnits(item.price) * BigInt(item.quantity), 0n)
}

function truncate(text: string): string {
  const clean = text.replace(/[\u0000-\u001f]/g, " ").trim()
  return clean.length > NAME_LIMIT ? `${clean.slice(0, NAME_LIMIT - 1)}…` : clean
}
