import { CODES, fail, GatewayError, requireField } from "../core/codes"
import type { Gateway } from "../core/gateway"
import { json, type Reply } from "../http/io"
import type { RequestContext } from "../http/router"
import { requireLinkType, validateLink } from "../links/rules"
import { linkRecord, linkUrl } from "../links/view"
import type { Merchant, PaymentLink } from "../types"

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** The payment link operations name their code field statuscode (not status_code), errors included. */
function linkOperation(handle: (ctx: RequestContext, gateway: Gateway, merchant: Merchant) => Reply) {
  return (ctx: RequestContext, gateway: Gateway): Reply => {
    try {
      if (!ctx.req.headers.accept) fail(CODES.VALIDATION, "The Accept header is required.")
      return handle(ctx, gateway, ctx.merchant!)
    } catch (error) {
      if (error instanceof GatewayError) return json({ statuscode: error.code, description: error.description })
      throw error
    }
  }
}

/** POST /api/dpl/create (multipart, product_photo file): a multi-use link of the bearer's merchant. */
export const createPaymentLink = linkOperation((ctx, gateway, merchant) => {
  const link = validateLink(ctx.body, merchant, gateway)
  gateway.store.state.links.push(link)
  gateway.store.save()
  return json({ statuscode: CODES.SUCCESS, description: "DPL is created successfully", data: { dpl: linkRecord(link, merchant), inputs: link.inputs } })
})

function requireEmails(body: Record<string, unknown>): string[] {
  requireField(body, "email")
  const list = body.email
  if (!Array.isArray(list) || list.length === 0) fail(CODES.VALIDATION, "The email must be a list of e-mail addresses.")
  list.forEach((address, index) => {
    if (typeof address !== "string" || !EMAIL.test(address.trim())) fail(CODES.VALIDATION, `The email.${index} must be a valid email address.`)
  })
  return list.map((address: string) => address.trim())
}

function findLink(gateway: Gateway, merchant: Merchant, dplIdText: string): PaymentLink {
  if (!/^\d+$/.test(dplIdText)) fail(CODES.VALIDATION, "The dpl_id must be an integer.")
  const link = gateway.store.state.links.find((l) => l.id === Number(dplIdText) && l.merchant_key === merchant.merchant_key)
  if (!link) fail(CODES.TRANSACTION_NOT_FOUND, "The selected dpl_id is invalid: payment link not found.")
  return link
}

/** POST /api/dpl/sendemail (JSON): e-mails the link to each address (the outbox of the test controls). */
export const sendPaymentLinkEmail = linkOperation((ctx, gateway, merchant) => {
  const dplId = requireField(ctx.body, "dpl_id")
  requireLinkType(ctx.body)
  const emails = requireEmails(ctx.body)
  const link = findLink(gateway, merchant, dplId)
  if (link.status !== "ACTIVE") fail(CODES.VALIDATION, `The payment link is not active (${link.status}).`)
  const url = linkUrl(gateway, link)
  const sentAt = new Date(gateway.clock.now()).toISOString()
  for (const to of emails) {
    gateway.store.state.outbox.push({ to, subject: `${merchant.name}: payment link for ${link.name_of_product}`, link: url, dpl_id: link.id, sent_at: sentAt })
  }
  link.is_email_send = 1
  link.updated_at_ms = gateway.clock.now()
  gateway.store.save()
  return json({ statuscode: CODES.SUCCESS, description: "Success", data: { dpl: linkRecord(link, merchant), link: url } })
})
