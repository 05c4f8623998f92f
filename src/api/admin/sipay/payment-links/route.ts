import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { linkBaseOf } from "../../../../lib/payment-links"
import { createPaymentLinkWorkflow } from "../../../../workflows/payment-links"
import { sipayModuleOf } from "../../../sipay-responses"
import { uploadedFile } from "./multipart"
import type { CreatePaymentLinkBody, ListPaymentLinksQuery } from "./validators"
import { LINK_RELATIONS, paymentLinkView } from "./view"

/** The links this store created, newest first; `q` searches product name and description. */
export const GET = async (req: AuthenticatedMedusaRequest<unknown, ListPaymentLinksQuery>, res: MedusaResponse) => {
  const { q, status, limit, offset } = req.validatedQuery as unknown as ListPaymentLinksQuery
  const filters: Record<string, unknown> = {}
  if (q) filters.q = q
  if (status) filters.status = status
  const [links, count] = await sipayModuleOf(req).listAndCountPaymentLinks(filters, {
    relations: LINK_RELATIONS,
    order: { created_at: "DESC" },
    take: limit,
    skip: offset,
  })
  res.json({ payment_links: links.map(paymentLinkView), count, limit, offset })
}

/** Multipart: the link's fields and its photo as the `product_photo` file part. */
export const POST = async (req: AuthenticatedMedusaRequest<CreatePaymentLinkBody>, res: MedusaResponse) => {
  const sipay = sipayModuleOf(req)
  const photo = uploadedFile(req, "product_photo")
  const { result } = await createPaymentLinkWorkflow(req.scope).run({
    input: {
      link: req.validatedBody,
      photo: {
        content: photo?.buffer.toString("base64") ?? "",
        filename: photo?.originalname ?? "",
        content_type: photo?.mimetype ?? "",
      },
      link_base: linkBaseOf(sipay.getClient().panelBaseUrl),
    },
  })
  const link = await sipay.retrievePaymentLink(result.id, { relations: LINK_RELATIONS })
  res.status(201).json({ payment_link: paymentLinkView(link) })
}
