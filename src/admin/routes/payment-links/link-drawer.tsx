import { Alert, Button, Drawer, Heading, Input, Label, StatusBadge, Text, Textarea, toast } from "@medusajs/ui"
import { FormEvent, useEffect, useState } from "react"
import { adminRequest, formatDateTime, formatMoney } from "../../lib/admin-api"
import type { PaymentLink } from "../../lib/types"
import { LinkStatus, usesText } from "./link-status"

/** Addresses as a store owner types them: one per line, or separated by commas, semicolons or spaces. */
export function parseAddresses(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((address) => address.trim()).filter(Boolean))]
}

export async function copyLink(link: string) {
  try {
    await navigator.clipboard.writeText(link)
    toast.success("Link copied")
  } catch {
    toast.info(link, { description: "Copy the link from here" })
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

/** Where the link's record last came from, in the owner's words (the server names its operations). */
const SYNC_SOURCES: Record<string, string> = {
  create: "when created",
  sendemail: "when e-mailed",
  transactions: "on a refresh, from the gateway's sales records",
}

/** One link: its record, the payer link to copy, a refresh of its uses, "send by e-mail" and the e-mail history. */
export function LinkDrawer({ link: selected, onClose, onChanged }: { link: PaymentLink | null; onClose: () => void; onChanged: (link: PaymentLink) => void }) {
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
      setSendError("Give at least one e-mail address")
      return
    }
    setSending(true)
    setSendError(null)
    try {
      const { payment_link } = await adminRequest<{ payment_link: PaymentLink }>(`/admin/sipay/payment-links/${link.id}/send`, { json: { emails } })
      onChanged(payment_link)
      setAddresses("")
      toast.success(`Sent to ${emails.length} address${emails.length === 1 ? "" : "es"}`)
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
          <Drawer.Title>{link?.name_of_product ?? "Payment link"}</Drawer.Title>
        </Drawer.Header>
        {link ? (
          <Drawer.Body className="flex flex-col gap-y-6 overflow-y-auto">
            <section className="flex flex-col gap-y-2">
              <Label htmlFor="payer-link" size="small" weight="plus">Payer link</Label>
              <div className="flex gap-x-2">
                <Input id="payer-link" readOnly value={link.link} className="flex-1" />
                <Button size="small" variant="secondary" type="button" onClick={() => copyLink(link.link)}>Copy link</Button>
              </div>
            </section>
            <section>
              <div className="flex items-center justify-between pb-2">
                <Heading level="h3">Link</Heading>
                <Button size="small" variant="secondary" type="button" onClick={refresh} isLoading={refreshing}>Refresh uses</Button>
              </div>
              {refreshError ? <Alert variant="error" className="mb-2">{refreshError}</Alert> : null}
              <Row label="Status"><LinkStatus status={link.status} /></Row>
              <Row label="Uses / max" testId="link-uses">{usesText(link)}</Row>
              <Row label="Amount">{formatMoney(link.amount, link.currency_code)}{link.is_amount_set_by_user ? " (payer may change it)" : ""}</Row>
              <Row label="Expires">{link.expire_date} (Istanbul)</Row>
              <Row label="Description">{link.description}</Row>
              <Row label="Photo">{link.photo_filename ? `${link.photo_filename} (${link.photo_content_type}, ${Math.ceil((link.photo_size ?? 0) / 1024)} KB)` : "-"}</Row>
              <Row label="Gateway id">{link.dpl_id}</Row>
              <Row label="Last brought up to date">{formatDateTime(link.synced_at)}{link.synced_from && SYNC_SOURCES[link.synced_from] ? `, ${SYNC_SOURCES[link.synced_from]}` : ""}</Row>
            </section>
            <section>
              <Heading level="h3" className="pb-2">Send by e-mail</Heading>
              <form onSubmit={send} className="flex flex-col gap-y-2" aria-label="Send by e-mail">
                <Label htmlFor="send-addresses" size="small">Addresses (one per line, or separated by commas)</Label>
                <Textarea id="send-addresses" value={addresses} onChange={(event) => setAddresses(event.target.value)} placeholder={"ayse@example.com\nmehmet@example.com"} />
                {sendError ? <Alert variant="error" data-testid="send-error">{sendError}</Alert> : null}
                <Button type="submit" size="small" isLoading={sending} className="self-start">Send</Button>
              </form>
            </section>
            <section>
              <Heading level="h3" className="pb-2">E-mails sent</Heading>
              {link.emails.length === 0 ? (
                <Text size="small" className="text-ui-fg-subtle">Not sent yet.</Text>
              ) : (
                <ul className="flex flex-col gap-y-2" data-testid="email-history">
                  {link.emails.map((send) => (
                    <li key={send.id} className="flex flex-col gap-y-1 rounded-md border p-2">
                      <div className="flex items-center justify-between">
                        <Text size="small">{formatDateTime(send.sent_at)}</Text>
                        <StatusBadge color={send.outcome === "sent" ? "green" : "red"}>{send.outcome === "sent" ? "Sent" : "Failed"}</StatusBadge>
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
