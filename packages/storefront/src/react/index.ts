"use client"

export { SipayHostedPayButton } from "./hosted-pay-button"
export { SipayThreeDCardForm } from "./three-d-card-form"
export { SipayDirectCardForm } from "./direct-card-form"
export { SipayPaymentError } from "./payment-error"
export { MESSAGES } from "./messages"
export { SipaySavedCardChoice, SipaySavedCardsList, SipaySaveCardConsent } from "./saved-cards"
export { SAVED_CARD_MESSAGES } from "./saved-card-messages"
