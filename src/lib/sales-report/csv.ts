import type { SaleView } from "./types"

/** Characters that make a spreadsheet read a cell as a formula (OWASP CSV injection; tab and CR too). */
const FORMULA_START = /^[=+\-@\t\r]/

/** A cell a spreadsheet will not evaluate: formula-like text gets a leading single quote. */
export function neutraliseCell(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value)
  return FORMULA_START.test(text) ? `'${text}` : text
}

/** RFC 4180 quoting of one already-neutralised cell. */
function quoteCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** CSV lines (each ending CRLF) of rows; every cell neutralised, then quoted. */
export function csvLines(rows: readonly (readonly unknown[])[]): string {
  let text = ""
  for (const row of rows) text += row.map((cell) => quoteCell(neutraliseCell(cell))).join(",") + "\r\n"
  return text
}

/** CSV text (CRLF line ends) of a header and rows; every cell neutralised, then quoted. */
export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return csvLines([header, ...rows])
}

/** The header line of the sales export. */
export function salesCsvHeader(): string {
  return csvLines([SALES_CSV_COLUMNS.map((column) => column.header)])
}

/** Sales as CSV lines without the header (the export streams them batch by batch). */
export function salesCsvLines(sales: readonly SaleView[]): string {
  return csvLines(sales.map((sale) => SALES_CSV_COLUMNS.map((column) => column.value(sale))))
}

export const SALES_CSV_COLUMNS: readonly { header: string; value: (sale: SaleView) => unknown }[] = [
  { header: "created_at", value: (s) => s.created_at },
  { header: "invoice_id", value: (s) => s.invoice_id },
  { header: "gateway_order_id", value: (s) => s.order_id },
  { header: "state_id", value: (s) => s.transaction_state_id },
  { header: "state", value: (s) => s.transaction_state_label },
  { header: "currency", value: (s) => s.currency_code },
  { header: "gross", value: (s) => s.gross },
  { header: "net", value: (s) => s.net },
  { header: "commission", value: (s) => s.merchant_commission },
  { header: "refunded", value: (s) => s.total_refunded_amount },
  { header: "installment", value: (s) => s.installment },
  { header: "card", value: (s) => s.credit_card_no },
  { header: "card_holder", value: (s) => s.sale_billing?.card_holder_name },
  { header: "bank", value: (s) => s.card_holder_bank },
  { header: "settlement_date_bank", value: (s) => s.settlement_date_bank },
  { header: "settlement_date_merchant", value: (s) => s.settlement_date_merchant },
  { header: "medusa_order_id", value: (s) => s.medusa?.order_id },
  { header: "medusa_sale_kind", value: (s) => s.medusa?.sale_kind },
  { header: "medusa_related_order_id", value: (s) => s.medusa?.related_order_id },
  { header: "dpl_id", value: (s) => s.dpl_id || "" },
  { header: "medusa_payment_link_id", value: (s) => s.medusa?.payment_link_id },
]

/** The sales shown, one row each, as CSV. */
export function salesCsv(sales: readonly SaleView[]): string {
  return toCsv(
    SALES_CSV_COLUMNS.map((column) => column.header),
    sales.map((sale) => SALES_CSV_COLUMNS.map((column) => column.value(sale)))
  )
}
