/** The gateway's calendar day (Istanbul): getTransactions dates sales by it. A file without node:crypto, so the admin can use it. */
export { istanbulDate as gatewayDay } from "../sipay/calendar"
