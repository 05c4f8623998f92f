import type { Route } from "./http/router"
import { submitBankPage, showBankPage } from "./operations/bank"
import { commissions, getPos, installments } from "./operations/card-options"
import { checkStatus } from "./operations/checkstatus"
import { confirmPayment } from "./operations/confirm-payment"
import { getTransactions } from "./operations/get-transactions"
import { payLink, showLinkPage, showLinkResult } from "./operations/link-page"
import { payDirect } from "./operations/pay-2d"
import { payWith3d } from "./operations/pay-3d"
import { createPaymentLink, sendPaymentLinkEmail } from "./operations/payment-links"
import { queryRecurringPlan, updateRecurringPlan } from "./operations/recurring-plan"
import { completePayment } from "./operations/payment-complete"
import { refund } from "./operations/refund"
import { issueToken } from "./operations/token"
import { deleteCard, editCard, getCardTokens, saveCard } from "./operations/card-storage"
import { payByCardToken, payByCardTokenNonSecure } from "./operations/pay-token"

/** Mount point of the gateway's operations, as in {base_url} = {link_base}/ccpayment. */
export const BASE_PATH = "/ccpayment"

/** The gateway's operations: adding one is a line here and a handler in operations/. */
export const GATEWAY_ROUTES: Route[] = [
  { method: "POST", path: `${BASE_PATH}/api/token`, operation: "token", handle: issueToken },
  { method: "POST", path: `${BASE_PATH}/api/paySmart3D`, operation: "paySmart3D", faultKinds: ["latency", "http_500", "http_502", "drop_connection"], handle: payWith3d },
  { method: "GET", path: new RegExp(`^${BASE_PATH}/bank/([A-Za-z0-9_-]+)$`), handle: showBankPage },
  // charge_then_drop of paySmart3D hits the bank page's submit: the sale is settled, the browser never comes back.
  { method: "POST", path: new RegExp(`^${BASE_PATH}/bank/([A-Za-z0-9_-]+)$`), operation: "paySmart3D", faultKinds: ["charge_then_drop"], handle: submitBankPage },
  { method: "POST", path: `${BASE_PATH}/api/paySmart2D`, operation: "paySmart2D", auth: true, handle: payDirect },
  { method: "POST", path: `${BASE_PATH}/api/checkstatus`, operation: "checkstatus", auth: true, handle: checkStatus },
  { method: "POST", path: `${BASE_PATH}/api/confirmPayment`, operation: "confirmPayment", auth: true, handle: confirmPayment },
  { method: "POST", path: `${BASE_PATH}/api/refund`, operation: "refund", auth: true, handle: refund },
  { method: "POST", path: `${BASE_PATH}/api/getpos`, operation: "getpos", auth: true, handle: getPos },
  { method: "POST", path: `${BASE_PATH}/api/installments`, operation: "installments", auth: true, handle: installments },
  { method: "POST", path: `${BASE_PATH}/api/commissions`, operation: "commissions", auth: true, handle: commissions },
  { method: "POST", path: `${BASE_PATH}/payment/complete`, operation: "payment_complete", auth: true, handle: completePayment },
  { method: "POST", path: `${BASE_PATH}/api/getTransactions`, operation: "getTransactions", auth: true, handle: getTransactions },
  { method: "POST", path: `${BASE_PATH}/api/dpl/create`, operation: "dpl", auth: true, handle: createPaymentLink },
  { method: "POST", path: `${BASE_PATH}/api/dpl/sendemail`, operation: "dpl", auth: true, handle: sendPaymentLinkEmail },
  { method: "POST", path: `${BASE_PATH}/api/recurringPlan/query`, operation: "recurringPlan", auth: true, handle: queryRecurringPlan },
  { method: "POST", path: `${BASE_PATH}/api/recurringPlan/update`, operation: "recurringPlan", auth: true, handle: updateRecurringPlan },
  // Card storage (published clients: sipay-node src/resources/cards.ts, the PHP SDK's Card resources).
  { method: "POST", path: `${BASE_PATH}/api/saveCard`, operation: "saveCard", auth: true, handle: saveCard },
  // Both published clients GET it with a JSON body; a POST (another public integration) is answered alike.
  { method: "GET", path: `${BASE_PATH}/api/getCardTokens`, operation: "getCardTokens", auth: true, handle: getCardTokens },
  { method: "POST", path: `${BASE_PATH}/api/getCardTokens`, operation: "getCardTokens", auth: true, handle: getCardTokens },
  { method: "POST", path: `${BASE_PATH}/api/editCard`, operation: "editCard", auth: true, handle: editCard },
  { method: "POST", path: `${BASE_PATH}/api/deleteCard`, operation: "deleteCard", auth: true, handle: deleteCard },
  { method: "POST", path: `${BASE_PATH}/api/payByCardToken`, operation: "payByCardToken", auth: true, handle: payByCardToken },
  { method: "POST", path: `${BASE_PATH}/api/payByCardTokenNonSecure`, operation: "payByCardTokenNonSecure", auth: true, handle: payByCardTokenNonSecure },
  // The payer-facing payment link page lives under {link_base}, as the interface's {link_base}/dplLink/<token>.
  { method: "GET", path: /^\/dplLink\/([A-Za-z0-9]+)$/, handle: showLinkPage },
  { method: "POST", path: /^\/dplLink\/([A-Za-z0-9]+)$/, handle: payLink },
  { method: "GET", path: /^\/dplLink\/([A-Za-z0-9]+)\/result$/, handle: showLinkResult },
]
