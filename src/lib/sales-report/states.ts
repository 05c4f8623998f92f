/**
 * Sale states for the lookup's filter. The interface shows only 11 'Chargebacked'; the others are
 * the sandbox's documented table (docs/sandbox.md), and the page also offers any state it is shown.
 */
export const KNOWN_SALE_STATES: readonly { id: number; label: string }[] = [
  { id: 1, label: "Completed" },
  { id: 2, label: "Failed" },
  { id: 3, label: "Pending" },
  { id: 4, label: "Refunded" },
  { id: 5, label: "Partially Refunded" },
  { id: 6, label: "Pre-Authorized" },
  { id: 7, label: "Cancelled" },
  { id: 11, label: "Chargebacked" },
]

/** The gateway's currency ids, as getTransactions filters them (the client's LINK_CURRENCY_IDS; not imported: the admin bundle must not pull node:crypto). */
export const SALE_CURRENCIES: readonly { id: number; code: string }[] = [
  { id: 1, code: "TRY" },
  { id: 2, code: "USD" },
  { id: 3, code: "EUR" },
]
