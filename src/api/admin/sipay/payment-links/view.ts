import { formatAmount } from "../../../../lib/sipay"

type StoredEmail = { id: string; recipients: unknown; sent_at: Date | string; outcome: string; error_code: string | null; error_message: string | null }
type StoredLink = Record<string, any> & { emails?: StoredEmail[] }

/** A stored link as the admin API answers it: the gateway's record, the payer link, and the e-mail sends (newest first). */
export function paymentLinkView(link: StoredLink) {
  const { raw_amount, deleted_at, emails, amount, ...fields } = link
  const sends = [...(emails ?? [])]
    .sort((a, b) => new Date(b.sent_at).getTime() - new Date(a.sent_at).getTime())
    .map((send) => ({
      id: send.id,
      recipients: Array.isArray(send.recipients) ? send.recipients : [],
      sent_at: send.sent_at,
      outcome: send.outcome,
      error_code: send.error_code,
      error_message: send.error_message,
    }))
  const delivered = sends.filter((send) => send.outcome === "sent")
  return {
    ...fields,
    amount: formatAmount(raw_amount?.value ?? amount),
    is_amount_set_by_user: Number(fields.is_amount_set_by_user) === 1,
    emails: sends,
    emailed: {
      count: delivered.length,
      recipients: [...new Set(delivered.flatMap((send) => send.recipients as string[]))],
      last_sent_at: delivered[0]?.sent_at ?? null,
    },
  }
}

export const LINK_RELATIONS = ["emails"]
