import { Alert, Button, Drawer, Heading, Input, Label, StatusBadge, Text, Textarea, toast } from "@medusajs/ui"
import { FormEvent, useEffect, useState } from "react"
import { adminRequest } from "../../lib/admin-api"
import { formatAmount, formatGatewayTime, formatLocalDateTime, useSipayT } from "../../lib/i18n"
import type { PaymentLink } from "../../lib/types"
import { LinkStatus, usesText } from "./link-status"

/** Addresses as a store owner types them: one per line, or separated by commas, semicolons or spaces. */
export function parseAddresses(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((address) => address.trim()).filter(Boolean))]
}

export async function copyLink(link: string, t: (key: string) => string) {
  try {
    await navigator.clipboard.writeText(link)
    toast.success(t("paymentLinks.copied"))
  } catch {
    toast.info(link, { description: t("paymentLinks.copyFromHere") })
  }
}

// The value is a <div>: a status badge is a block, which may not sit inside Text's <p>.
function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-[140px_1fr] gap-x-4 py-1">
      <Text size="small" className="text-ui-fg-subtle">{label}</Text>
      <div className="txt-compact-small text-ui-fg-base" data-testid={testId}>{children}</div>
    </div>
  )
}

/** Where the link's record last came from, in the owner's words (the server names its operations): t("paymentLinks.syncedFrom.<name>"). */
const SYNC_SOURCES = new Set(["create", "sendemail", "transactions"])

/** One link: its record, the payer link to copy, a refresh of its uses, "send by e-mail" and the e-mail history. */
export function LinkDrawer({ link: selected, onClose, onChanged }: { link: PaymentLink | null; onClose: () => void; onChanged: (link: PaymentLink) => void }) {
  const { t, locale } = useSipayT()
  // The last link stays rendered while the drawer closes.
  const [link, setLink] = useState<PaymentLink | null>(selected)
  useEffect(() => {
    if (selected) setLink(selected)
  }, [selected])
  const [addresses, setAddresses] = useState("")
  const [sendError, setSendError] = useState<string | null>(null)
  const [refreshError, setRefreshError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const [refreshing, setRefreshing] = useState(false)

  const send = async (event: FormEvent) => {
    event.preventDefault()
    if (!link) return
    const emails = parseAddresses(addresses)
    if (!emails.length) {
      setSendError(t("paymentLinks.giveEmail"))
      return
    }
    setSending(true)
    setSendError(null)
    try {
      const { payment_link } = await adminRequest<{ payment_link: PaymentLink }>(`/admin/sipay/payment-links/${link.id}/send`, { json: { emails } })
      onChanged(payment_link)
      setAddresses("")
      toast.success(t("paymentLinks.sentTo", { count: emails.length }))
    } catch (failure) {
      setSendError((failure as Error).message)
      // The failed send is part of the link's history now.
      adminRequest<{ payment_link: PaymentLink }>(`/admin/sipay/payment-links/${link.id}`).then(({ payment_link }) => onChanged(payment_link)).catch(() => undefined)
    } finally {
      setSending(false)
    }
  }

  const refresh = async () => {
    if (!link) return
    setRefreshing(true)
    setRefreshError(null)
    try {
      onChanged((await adminRequest<{ payment_link: PaymentLink }>(`/admin/sipay/payment-links/${link.id}?refresh=true`)).payment_link)
    } catch (failure) {
      setRefreshError((failure as Error).message)
    } finally {
      setRefreshing(false)
    }
  }

  return (
    <Drawer open={Boolean(selected)} onOpenChange={(open) => (!open ? onClose() : undefined)}>
      <Drawer.Content aria-describedby={undefined}>
        <Drawer.Header>
          <Drawer.Title>{link?.name_of_product ?? t("paymentLinks.drawerTitle")}</Drawer.Title>
        </Drawer.Header>
        {link ? (
          <Drawer.Body className="flex flex-col gap-y-6 overflow-y-auto">
            <section className="flex flex-col gap-y-2">
              <Label htmlFor="payer-link" size="small" weight="plus">{t("paymentLinks.payerLink")}</Label>
              <div className="flex gap-x-2">
                <Input id="payer-link" readOnly value={link.link} className="flex-1" />
                <Button size="small" variant="secondary" type="button" onClick={() => copyLink(link.link, t)}>{t("paymentLinks.copy")}</Button>
              </div>
            </section>
            <section>
              <div className="flex items-center justify-between pb-2">
                <Heading level="h3">{t("paymentLinks.link")}</Heading>
                <Button size="small" variant="secondary" type="button" onClick={refresh} isLoading={refreshing}>{t("paymentLinks.refreshUses")}</Button>
              </div>
              {refreshError ? <Alert variant="error" className="mb-2">{refreshError}</Alert> : null}
              <Row label={t("paymentLinks.status")}><LinkStatus status={link.status} /></Row>
              <Row label={t("paymentLinks.uses")} testId="link-uses">{usesText(link)}</Row>
              <Row label={t("paymentLinks.amount")}>{formatAmount(link.amount, link.currency_code, locale)}{link.is_amount_set_by_user ? t("paymentLinks.payerMayChange") : ""}</Row>
              <Row label={t("paymentLinks.expires")}>{t("paymentLinks.expiresValue", { date: formatGatewayTime(link.expire_date, locale) })}</Row>
              <Row label={t("paymentLinks.description")}>{link.description}</Row>
              <Row label={t("paymentLinks.photo")}>{link.photo_filename ? t("paymentLinks.photoValue", { name: link.photo_filename, type: link.photo_content_type, size: Math.ceil((link.photo_size ?? 0) / 1024) }) : "-"}</Row>
              <Row label={t("paymentLinks.gatewayId")}>{link.dpl_id}</Row>
              <Row label={t("paymentLinks.lastUpdated")}>{formatLocalDateTime(link.synced_at, locale)}{link.synced_from && SYNC_SOURCES.has(link.synced_from) ? `, ${t(`paymentLinks.syncedFrom.${link.synced_from}`)}` : ""}</Row>
            </section>
            <section>
              <Heading level="h3" className="pb-2">{t("paymentLinks.sendByEmail")}</Heading>
              <form onSubmit={send} className="flex flex-col gap-y-2" aria-label={t("paymentLinks.sendByEmail")}>
                <Label htmlFor="send-addresses" size="small">{t("paymentLinks.addresses")}</Label>
                <Textarea id="send-addresses" value={addresses} onChange={(event) => setAddresses(event.target.value)} placeholder={"ayse@example.com\nmehmet@example.com"} />
                {sendError ? <Alert variant="error" data-testid="send-error">{sendError}</Alert> : null}
                <Button type="submit" size="small" isLoading={sending} className="self-start">{t("paymentLinks.send")}</Button>
              </form>
            </section>
            <section>
              <Heading level="h3" className="pb-2">{t("paymentLinks.emailsSent")}</Heading>
              {link.emails.length === 0 ? (
                <Text size="small" className="text-ui-fg-subtle">{t("paymentLinks.notSent")}</Text>
              ) : (
                <ul className="flex flex-col gap-y-2" data-testid="email-history">
                  {link.emails.map((send) => (
                    <li key={send.id} className="flex flex-col gap-y-1 rounded-md border p-2">
                      <div className="flex items-center justify-between">
                        <Text size="small">{formatLocalDateTime(send.sent_at, locale)}</Text>
                        <StatusBadge color={send.outcome === "sent" ? "green" : "red"}>{send.outcome === "sent" ? t("paymentLinks.sent") : t("paymentLinks.failed")}</StatusBadge>
                      </div>
                      <Text size="small" className="text-ui-fg-subtle">{send.recipients.join(", ")}</Text>
                      {send.outcome === "failed" ? <Text size="small" className="text-ui-fg-error">[{send.error_code}] {send.error_message}</Text> : null}
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </Drawer.Body>
        ) : null}
      </Drawer.Content>
    </Drawer>
  )
}
