import type { PaymentRequest, CardInput } from "../../types"

/** A future expiry: the gateway checks expiry against its clock. */
const nextYear = String(new Date().getUTCFullYear() + 2)

export const TEST_CARD: CardInput = {
  holderName: "Ayşe Yılmaz",
  number: "4508034508034509",
  expiryMonth: "12",
  expiryYear: nextYear,
  cvv: "000",
}

export function paymentRequest(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  return {
    invoiceId: "sess_01HXYZ_1",
    invoiceDescription: "Order sess_01HXYZ",
    total: "10.5",
    currencyCode: "TRY",
    installmentsNumber: 1,
    name: "Ayşe",
    surname: "Yılmaz",
    items: [
      { name: "Mug", price: "3.25", quantity: 2, description: "Blue mug" },
      { name: "Shipping", price: { raw: { value: "4.00" }, toString: () => "4" }, quantity: 1, description: "Standard" },
    ],
    returnUrl: "https://shop.example/sipay/3d/return",
    cancelUrl: "https://shop.example/sipay/3d/cancel",
    ...overrides,
  }
}
