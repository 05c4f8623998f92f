import { StatusBadge, Table, Text } from "@medusajs/ui"
import type { SaleView, SalesTotal } from "../../../lib/sales-report"
import { formatAmount, formatIstanbul, formatNumber, useSipayT } from "../../lib/i18n"
import { MedusaLinks } from "./sale-drawer"

const STATE_COLOR: Record<number, "green" | "red" | "orange" | "blue" | "grey" | "purple"> = {
  1: "green", 2: "red", 3: "orange", 4: "blue", 5: "blue", 6: "orange", 7: "grey", 11: "purple",
}


/** One row per sale; a row opens its drawer. */
export function SalesTable({ sales, onOpen }: { sales: SaleView[]; onOpen: (sale: SaleView) => void }) {
  const { t, locale } = useSipayT()
  return (
    <div className="overflow-x-auto">
      <Table>
        <Table.Header>
          <Table.Row>
            {["time", "invoiceId", "state", "gross", "net", "commission", "installments", "card", "refunded", "settlement", "medusa"].map((column) => (
              <Table.HeaderCell key={column}>{t(`sales.columns.${column}`)}</Table.HeaderCell>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {sales.map((sale) => (
            <Table.Row key={`${sale.id}-${sale.invoice_id}`} className="cursor-pointer" data-invoice-id={sale.invoice_id} onClick={() => onOpen(sale)}>
              <Table.Cell>{formatIstanbul(sale.created_at, locale, "time")}</Table.Cell>
              <Table.Cell>
                <button type="button" className="text-ui-fg-interactive font-mono text-left hover:underline" onClick={(e) => { e.stopPropagation(); onOpen(sale) }}>
                  {sale.invoice_id}
                </button>
              </Table.Cell>
              <Table.Cell>
                <StatusBadge color={STATE_COLOR[sale.transaction_state_id] ?? "grey"}>{sale.transaction_state_label}</StatusBadge>
              </Table.Cell>
              <Table.Cell className="text-right" data-column="gross">{formatAmount(sale.gross, sale.currency_code, locale)}</Table.Cell>
              <Table.Cell className="text-right">{formatNumber(sale.net, locale)}</Table.Cell>
              <Table.Cell className="text-right">{formatNumber(sale.merchant_commission, locale)}</Table.Cell>
              <Table.Cell className="text-right">{sale.installment}</Table.Cell>
              <Table.Cell className="font-mono">{sale.credit_card_no}</Table.Cell>
              <Table.Cell className="text-right">{formatNumber(sale.total_refunded_amount, locale)}</Table.Cell>
              <Table.Cell>
                <Text size="xsmall" leading="compact">{sale.settlement_date_bank}</Text>
                <Text size="xsmall" leading="compact" className="text-ui-fg-subtle">{sale.settlement_date_merchant}</Text>
              </Table.Cell>
              <Table.Cell><MedusaLinks sale={sale} /></Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
    </div>
  )
}

/** Totals of the rows shown, per currency. */
export function SalesTotals({ totals }: { totals: SalesTotal[] }) {
  const { t, locale } = useSipayT()
  return (
    <div className="flex flex-col gap-y-1 px-6 py-4" data-testid="sales-totals">
      {totals.map((total) => (
        <Text key={total.currency_code} size="small" leading="compact">
          {t("sales.totals", { currency: total.currency_code, count: total.count, gross: formatNumber(total.gross, locale), net: formatNumber(total.net, locale), commission: formatNumber(total.commission, locale), refunded: formatNumber(total.refunded, locale) })}
        </Text>
      ))}
    </div>
  )
}
