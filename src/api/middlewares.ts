import { defineMiddlewares, validateAndTransformBody, validateAndTransformQuery } from "@medusajs/framework/http"
import { AttemptChoiceBody, DirectPaymentBody, PartialCaptureBody } from "./validators"
import { readMultipartForm } from "./admin/sipay/payment-links/multipart"
import { CreatePaymentLinkBody, GetPaymentLinkQuery, ListPaymentLinksQuery, SendPaymentLinkBody } from "./admin/sipay/payment-links/validators"
import { UpdateSettingsBody } from "./admin/sipay/settings/validators"
import { refuseCrossSiteAdminPosts, refuseCrossSiteShopperPosts } from "./cross-site"
import { holdsCart, holdsHostedPageToken, limitInstallmentLookups, limitPaymentAttempts } from "./rate-limits"

export default defineMiddlewares({
  routes: [
    {
      // Admin routes that change state: never from another site's form (an API token, without Origin, still works).
      matcher: "/admin/sipay/*",
      method: ["POST", "DELETE"],
      middlewares: [refuseCrossSiteAdminPosts],
    },
    {
      // The audit reads, but may pull a day from the gateway: not from another site's page either.
      matcher: "/admin/sipay/audit*",
      method: ["GET"],
      middlewares: [refuseCrossSiteAdminPosts],
    },
    {
      matcher: "/store/sipay/payment-sessions/:id/3d-form",
      method: ["POST"],
      middlewares: [refuseCrossSiteShopperPosts, limitPaymentAttempts("id", holdsCart), validateAndTransformBody(AttemptChoiceBody)],
    },
    {
      matcher: "/sipay/checkout/:session_id/sign",
      method: ["POST"],
      middlewares: [refuseCrossSiteShopperPosts, limitPaymentAttempts("session_id", holdsHostedPageToken), validateAndTransformBody(AttemptChoiceBody)],
    },
    {
      matcher: "/store/sipay/installments",
      method: ["GET"],
      middlewares: [limitInstallmentLookups()],
    },
    {
      matcher: "/sipay/checkout/:session_id/installments",
      method: ["GET"],
      middlewares: [limitInstallmentLookups("session_id")],
    },
    {
      matcher: "/store/sipay/payment-sessions/:id/pay-2d",
      method: ["POST"],
      middlewares: [validateAndTransformBody(DirectPaymentBody)],
    },
    {
      matcher: "/admin/sipay/payments/:payment_id/capture",
      method: ["POST"],
      middlewares: [validateAndTransformBody(PartialCaptureBody)],
    },
    {
      matcher: "/admin/sipay/payment-links",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(ListPaymentLinksQuery, {})],
    },
    {
      matcher: "/admin/sipay/payment-links",
      method: ["POST"],
      // The body is a multipart form (the photo): Medusa's parsers leave it to readMultipartForm.
      bodyParser: false,
      middlewares: [readMultipartForm(), validateAndTransformBody(CreatePaymentLinkBody)],
    },
    {
      matcher: "/admin/sipay/payment-links/:id",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(GetPaymentLinkQuery, {})],
    },
    {
      matcher: "/admin/sipay/payment-links/:id/send",
      method: ["POST"],
      middlewares: [validateAndTransformBody(SendPaymentLinkBody)],
    },
    {
      matcher: "/admin/sipay/settings",
      method: ["POST"],
      middlewares: [validateAndTransformBody(UpdateSettingsBody)],
    },
  ],
})
