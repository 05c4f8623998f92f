import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Alert, Button, Container, Heading, Input, Label, StatusBadge, Text, toast, usePrompt } from "@medusajs/ui"
import { useCallback, useEffect, useState } from "react"
import { adminRequest } from "../lib/admin-api"
import { formatAmount, formatGatewayTime, formatLocalDateTime, useSipayT } from "../lib/i18n"

type OrderLink = {
  id: string
  link: string
  amount: string
  currency_code: string
  email: string
  email_outcome: string
  email_error: string | null
  status: string
  number_of_uses: number
  expire_date: string
  synced_at: string | null
  order_total_changed: boolean
  /** open, paid (the order is paid by the link's sale), refunded (its payment given back), expired, processing. */
  state: string
  payment_id: string | null
  settled_invoice_id: string | null
  converted_draft: boolean
  refused_sales: { invoice_id: string; reason: string; amount: string | null; currency_code: string | null }[]
  settle_error: string | null
  created_at: string
}

/** A link's state as a badge colour; its text is t("phoneLink.states.<state>"). */
const STATE_COLOR: Record<string, "green" | "orange" | "grey" | "red"> = { paid: "green", open: "orange", processing: "orange", refunded: "red", expired: "red" }

/**
 * A phone order's payment link: made for the order's total and e-mailed in one action (confirmed
 * first), and each link's state: open (until when), paid (the order's payment), refunded (why),
 * expired unpaid.
 */
const PhonePaymentLinkWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const { t, locale } = useSipayT()
  const [links, setLinks] = useState<OrderLink[] | null>(null)
  const [email, setEmail] = useState(order.email ?? "")
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const prompt = usePrompt()
  const path = `/admin/sipay/draft-orders/${encodeURIComponent(order.id)}/payment-link`

  const load = useCallback(async () => {
    try {
      setLinks((await adminRequest<{ order_payment_links: OrderLink[] }>(path)).order_payment_links)
      setError(null)
    } catch (failure) {
      setError((failure as Error).message)
    }
  }, [path])

  useEffect(() => {
    load()
  }, [load])

  const create = async () => {
    const confirmed = await prompt({
      title: t("phoneLink.confirmTitle"),
      description: t("phoneLink.confirmText", { amount: formatAmount(order.total as never, order.currency_code, locale), email }),
      confirmText: t("phoneLink.send"),
      cancelText: t("common.cancel"),
    })
    if (!confirmed) return
    setBusy(true)
    try {
      setLinks((await adminRequest<{ order_payment_links: OrderLink[] }>(path, { method: "POST", json: email ? { email } : {} })).order_payment_links)
      toast.success(t("phoneLink.sent"))
    } catch (failure) {
      toast.error(t("phoneLink.notSent"), { description: (failure as Error).message })
    } finally {
      setBusy(false)
    }
  }

  // An order paid otherwise (at checkout) needs no link: nothing is shown unless it has one.
  const paidOtherwise = !["not_paid", "awaiting", undefined, null].includes((order as { payment_status?: string }).payment_status as never)
  if (paidOtherwise && !links?.length) return null
  const paid = links?.some((link) => link.state === "paid" || link.state === "processing")
  const open = links?.some((link) => link.state === "open")
  return (
    <Container className="flex flex-col gap-y-3 px-6 py-4" data-testid="order-phone-payment-link">
      <Heading level="h2">{t("phoneLink.title")}</Heading>
      {error ? <Alert variant="error">{error}</Alert> : null}
      {(links ?? []).map((link) => {
        const color = STATE_COLOR[link.state] ?? "grey"
        const text = STATE_COLOR[link.state] ? t(`phoneLink.states.${link.state}`) : link.state
        const at = formatLocalDateTime(link.created_at, locale)
        return (
          <div key={link.id} className="flex flex-col gap-y-1 border-b pb-2">
            <div className="flex items-center justify-between">
              <Text size="small">{formatAmount(link.amount, link.currency_code, locale)}</Text>
              <StatusBadge color={color}>{text}</StatusBadge>
            </div>
            <Text size="xsmall" className="text-ui-fg-subtle">{link.email_outcome === "sent" ? t("phoneLink.emailed", { email: link.email, at }) : t("phoneLink.notEmailed", { email: link.email, error: link.email_error ?? "", at })}</Text>
            <Text size="xsmall" className="text-ui-fg-subtle break-all">{link.link}</Text>
            {link.state === "open" ? <Text size="xsmall">{t("phoneLink.openUntil", { date: formatGatewayTime(link.expire_date, locale) })}</Text> : null}
            {link.payment_id ? (
              <Text size="xsmall">{t(link.converted_draft ? "phoneLink.paidConverted" : "phoneLink.paidRecorded", { payment: link.payment_id, invoice: link.settled_invoice_id ?? "" })}</Text>
            ) : null}
            {link.refused_sales.map((sale) => (
              <Alert key={sale.invoice_id} variant="warning">
                {t("phoneLink.refundedSale", {
                  amount: sale.amount ? formatAmount(sale.amount, sale.currency_code, locale) : "",
                  invoice: sale.invoice_id,
                  reason: t(`phoneLink.reasons.${sale.reason}`),
                })}
              </Alert>
            ))}
            {link.settle_error ? <Alert variant="error">{t("phoneLink.settleError", { error: link.settle_error })}</Alert> : null}
            {link.order_total_changed && !link.payment_id ? <Alert variant="warning">{t("phoneLink.changed")}</Alert> : null}
          </div>
        )
      })}
      {!paid && !open ? (
        <div className="flex flex-col gap-y-2">
          <Label size="small" htmlFor="phone-link-email">{t("phoneLink.customerEmail")}</Label>
          <Input id="phone-link-email" size="small" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          <Button size="small" variant="secondary" isLoading={busy} disabled={!email} onClick={create}>{t("phoneLink.sendLink")}</Button>
        </div>
      ) : null}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: ["order.details.side.after", "draft_order.details.side.after"] })

export default PhonePaymentLinkWidget
