import { StatusBadge, Table, Text } from "@medusajs/ui"
import type { SaleView, SalesTotal } from "../../../lib/sales-report"
import { formatMoney } from "../../lib/admin-api"
import { MedusaLinks } from "./sale-drawer"

const STATE_COLOR: Record<number, "green" | "red" | "orange" | "blue" | "grey" | "purple"> = {
  1: "green", 2: "red", 3: "orange", 4: "blue", 5: "blue", 6: "orange", 7: "grey", 11: "purple",
}

function istanbulTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString("en-GB", { timeZone: "Europe/Istanbul", hour: "2-digit", minute: "2-digit" })
}

/** One row per sale; a row opens its drawer. */
export function SalesTable({ sales, onOpen }: { sales: SaleView[]; onOpen: (sale: SaleView) => void }) {
  return (
    <div className="overflow-x-auto">
      <Table>
        <Table.Header>
          <Table.Row>
            {["Time", "Invoice id", "State", "Gross", "Net", "Commission", "Inst.", "Card", "Refunded", "Settlement (bank / merchant)", "Medusa"].map((title) => (
              <Table.HeaderCell key={title}>{title}</Table.HeaderCell>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {sales.map((sale) => (
            <Table.Row key={`${sale.id}-${sale.invoice_id}`} className="cursor-pointer" data-invoice-id={sale.invoice_id} onClick={() => onOpen(sale)}>
              <Table.Cell>{istanbulTime(sale.created_at)}</Table.Cell>
              <Table.Cell>
                <button type="button" className="text-ui-fg-interactive font-mono text-left hover:underline" onClick={(e) => { e.stopPropagation(); onOpen(sale) }}>
                  {sale.invoice_id}
                </button>
              </Table.Cell>
              <Table.Cell>
                <StatusBadge color={STATE_COLOR[sale.transaction_state_id] ?? "grey"}>{sale.transaction_state_label}</StatusBadge>
              </Table.Cell>
              <Table.Cell className="text-right" data-column="gross">{formatMoney(sale.gross, sale.currency_code)}</Table.Cell>
              <Table.Cell className="text-right">{formatMoney(sale.net)}</Table.Cell>
              <Table.Cell className="text-right">{formatMoney(sale.merchant_commission)}</Table.Cell>
              <Table.Cell className="text-right">{sale.installment}</Table.Cell>
              <Table.Cell className="font-mono">{sale.credit_card_no}</Table.Cell>
              <Table.Cell className="text-right">{formatMoney(sale.total_refunded_amount)}</Table.Cell>
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
  return (
    <div className="flex flex-col gap-y-1 px-6 py-4" data-testid="sales-totals">
      {totals.map((total) => (
        <Text key={total.currency_code} size="small" leading="compact">
          <span className="font-medium">{total.currency_code}</span>: {total.count} sale{total.count === 1 ? "" : "s"} · gross {total.gross} · net {total.net} · commission {total.commission} · refunded {total.refunded}
        </Text>
      ))}
    </div>
  )
}
