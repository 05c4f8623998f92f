import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { DetailWidgetProps, AdminOrder } from "@medusajs/framework/types"
import { Container, Heading } from "@medusajs/ui"
import { useEffect, useState } from "react"
import { adminRequest } from "../lib/admin-api"
import { useSipayT } from "../lib/i18n"
import { PlanPanel } from "../routes/recurring-plans/plan-panel"

/** The order's recurring plan, when its payment opened one: facts, the gateway's charges and the plan's actions. */
const OrderRecurringPlanWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const { t } = useSipayT()
  const [planId, setPlanId] = useState<string | null>(null)

  useEffect(() => {
    adminRequest<{ recurring_plans: { id: string }[] }>(`/admin/sipay/recurring-plans?order_id=${encodeURIComponent(order.id)}`)
      .then((answer) => setPlanId(answer.recurring_plans[0]?.id ?? null))
      .catch(() => setPlanId(null))
  }, [order.id])

  if (!planId) return null
  return (
    <Container className="flex flex-col gap-y-3 px-6 py-4" data-testid="order-recurring-plan">
      <Heading level="h2">{t("recurring.plan")}</Heading>
      <PlanPanel planId={planId} />
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.side.after" })

export default OrderRecurringPlanWidget
