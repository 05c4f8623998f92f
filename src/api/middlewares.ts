import { defineMiddlewares, validateAndTransformBody, validateAndTransformQuery } from "@medusajs/framework/http"
import { AttemptChoiceBody, HostedPageSignBody, PartialCaptureBody, PaymentStatusBody, SavedCardPaymentBody } from "./validators"
import { refuseDirectPaymentStrangers } from "./direct-payment/holder"
import { readDirectPaymentBody } from "./direct-payment/read-body"
import { readMultipartForm } from "./admin/sipay/payment-links/multipart"
import { CreatePaymentLinkBody, GetPaymentLinkQuery, ListPaymentLinksQuery, SendPaymentLinkBody } from "./admin/sipay/payment-links/validators"
import { InstallmentFeePreviewBody, UpdateSettingsBody } from "./admin/sipay/settings/validators"
import { refuseCrossSiteAdminPosts, refuseCrossSiteShopperPosts } from "./cross-site"
import { holdsCart, limitInstallmentLookups, limitPaymentAttempts } from "./rate-limits"
import { holdsCheckoutToken } from "./sipay-responses"
import { refuseFeeWithOtherProviders, removeFeeForOtherProviders } from "./installment-fee-other-provider"

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
      // A shopper who comes back asks how their payment ended; the holder's proof is in the body.
      matcher: "/store/sipay/payment-sessions/:id/status",
      method: ["POST"],
      middlewares: [refuseCrossSiteShopperPosts, validateAndTransformBody(PaymentStatusBody)],
    },
    {
      matcher: "/store/sipay/payment-sessions/:id/pay-saved-card",
      method: ["POST"],
      middlewares: [refuseCrossSiteShopperPosts, limitPaymentAttempts("id", holdsCart), validateAndTransformBody(SavedCardPaymentBody)],
    },
    {
      // Another provider's session: the installment fee line leaves the cart first (docs/installments.md).
      matcher: "/store/payment-collections/:id/payment-sessions",
      method: ["POST"],
      middlewares: [removeFeeForOtherProviders],
    },
    {
      // Complete-cart refuses a fee line paid through another provider (a session made past the route above).
      matcher: "/store/carts/:id/complete",
      method: ["POST"],
      middlewares: [refuseFeeWithOtherProviders],
    },
    {
      // A signed-in customer deletes a saved card: never from another site's page.
      matcher: "/store/customers/me/sipay-cards/:card_id",
      method: ["DELETE"],
      middlewares: [refuseCrossSiteShopperPosts],
    },
    {
      matcher: "/sipay/checkout/:session_id/sign",
      method: ["POST"],
      middlewares: [refuseCrossSiteShopperPosts, limitPaymentAttempts("session_id", holdsCheckoutToken), validateAndTransformBody(HostedPageSignBody)],
    },
    {
      matcher: "/store/sipay/installments",
      method: ["GET"],
      middlewares: [limitInstallmentLookups()],
    },
    {
      matcher: "/sipay/checkout/:session_id/installments",
      method: ["POST"],
      middlewares: [limitInstallmentLookups("session_id")],
    },
    {
      matcher: "/store/sipay/payment-sessions/:id/pay-2d",
      method: ["POST"],
      // Card data: read and checked by the plugin alone (fixed messages); Medusa's parsers, validator and error handler never see it.
      bodyParser: false,
      middlewares: [readDirectPaymentBody, refuseDirectPaymentStrangers],
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
    {
      matcher: "/admin/sipay/settings/installment-fee-preview",
      method: ["POST"],
      middlewares: [validateAndTransformBody(InstallmentFeePreviewBody)],
    },
  ],
})
