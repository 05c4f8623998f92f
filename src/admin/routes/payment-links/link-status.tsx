import { StatusBadge } from "@medusajs/ui"
import { useSipayT } from "../../lib/i18n"

const COLORS: Record<string, "green" | "red" | "orange" | "grey" | "blue"> = { ACTIVE: "green", USED: "blue", EXPIRED: "grey" }

export function LinkStatus({ status }: { status: string }) {
  const { t } = useSipayT()
  return <StatusBadge color={COLORS[status] ?? "orange"}>{COLORS[status] ? t(`paymentLinks.statuses.${status}`) : status}</StatusBadge>
}

/** "1 / 3", or "1 / ∞" when the link has no maximum. */
export function usesText(link: { number_of_uses: number; max_number_of_uses: number }): string {
  return `${link.number_of_uses} / ${link.max_number_of_uses > 0 ? link.max_number_of_uses : "∞"}`
}
