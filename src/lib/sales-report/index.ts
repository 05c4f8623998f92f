/** The sales lookup and the order widget's view: pure, shared by the admin API and the admin UI. */
export { neutraliseCell, salesCsv, salesCsvHeader, salesCsvLines, toCsv, SALES_CSV_COLUMNS } from "./csv"
export { salesTotals } from "./totals"
export type { SalesTotal } from "./totals"
export { preAuthorizationDeadline } from "./pre-authorization"
export { orderPaymentView, paidInvoiceId, CHARGEBACK_STATE_ID } from "./order-payment-view"
export type * from "./types"
export { KNOWN_SALE_STATES, SALE_CURRENCIES } from "./states"
export { gatewayDay } from "./calendar"
