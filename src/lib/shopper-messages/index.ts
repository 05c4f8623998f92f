export { isShopperMessageCode, SHOPPER_MESSAGES, shopperMessage, type ShopperLocale, type ShopperMessageCode } from "./texts"
export { declineClassOf, type DeclineClass } from "./decline-class"
export { localeOfAcceptLanguage } from "./locale"
export { paymentOutcomeCode } from "./outcome"
