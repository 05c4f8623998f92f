import { StatusBadge } from "@medusajs/ui"

const COLORS: Record<string, "green" | "red" | "orange" | "grey" | "blue"> = { ACTIVE: "green", USED: "blue", EXPIRED: "grey" }
const LABELS: Record<string, string> = { ACTIVE: "Active", USED: "Used up", EXPIRED: "Expired" }

export function LinkStatus({ status }: { status: string }) {
  return <StatusBadge color={COLORS[status] ?? "orange"}>{LABELS[status] ?? status}</StatusBadge>
}

/** "1 / 3", or "1 / ∞" when the link has no maximum. */
export function usesText(link: { number_of_uses: number; max_number_of_uses: number }): string {
  return `${link.number_of_uses} / ${link.max_number_of_uses > 0 ? link.max_number_of_uses : "∞"}`
}
