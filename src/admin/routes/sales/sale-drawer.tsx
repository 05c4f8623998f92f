import { Drawer, Heading, Text } from "@medusajs/ui"
import { Link } from "react-router-dom"
import type { SaleView } from "../../../lib/sales-report"
import { useSipayT } from "../../lib/i18n"

/** The record's nested objects, in the interface's order. */
const NESTED = ["rolling_balance", "sale_billing", "merchant_sale", "refund_history", "sale_recurring", "sale_recurring_history", "sale_integrator", "userdata", "merchant"]

const isNested = (value: unknown) => value !== null && typeof value === "object"

function Field({ name, value }: { name: string; value: unknown }) {
  return (
    <div className="flex items-start justify-between gap-x-4 py-0.5">
      <Text size="xsmall" leading="compact" className="text-ui-fg-subtle font-mono">
        {name}
      </Text>
      <Text size="xsmall" leading="compact" className="font-mono break-all text-right">
        {value === null || value === undefined ? "null" : value === "" ? '""' : String(value)}
      </Text>
    </div>
  )
}

/** An object's fields, nested objects indented; an array's entries one after another. */
function Fields({ value }: { value: unknown }) {
  if (value === null || value === undefined) {
    return <Text size="xsmall" className="text-ui-fg-muted">null</Text>
  }
  if (Array.isArray(value)) {
    return value.length ? (
      <div className="flex flex-col gap-y-2">
        {value.map((entry, index) => (
          <div key={index} className="border-ui-border-base rounded-md border px-2 py-1">
            <Fields value={entry} />
          </div>
        ))}
      </div>
    ) : (
      <NoEntries />
    )
  }
  if (typeof value !== "object") {
    return <Field name="value" value={value} />
  }
  return (
    <div className="flex flex-col">
      {Object.entries(value as Record<string, unknown>).map(([name, inner]) =>
        isNested(inner) ? (
          <div key={name} className="py-1">
            <Text size="xsmall" weight="plus" className="font-mono">{name}</Text>
            <div className="pl-3"><Fields value={inner} /></div>
          </div>
        ) : (
          <Field key={name} name={name} value={inner} />
        )
      )}
    </div>
  )
}

function NoEntries() {
  const { t } = useSipayT()
  return <Text size="xsmall" className="text-ui-fg-muted">{t("sales.noEntries")}</Text>
}

export function MedusaLinks({ sale }: { sale: SaleView }) {
  const { t } = useSipayT()
  const { order_id, payment_link_id } = sale.medusa
  const dplId = Number(sale.dpl_id) > 0 ? Number(sale.dpl_id) : null
  return (
    <span className="flex flex-col gap-y-0.5">
      {order_id && (
        <Link to={`/orders/${order_id}`} className="text-ui-fg-interactive hover:underline" onClick={(e) => e.stopPropagation()} data-testid="order-link">
          {t("sales.order")}
        </Link>
      )}
      {dplId !== null && (
        <Link to={`/payment-links?${payment_link_id ? `id=${payment_link_id}` : `dpl_id=${dplId}`}`} className="text-ui-fg-interactive hover:underline" onClick={(e) => e.stopPropagation()} data-testid="payment-link-link">
          {t("sales.paymentLink", { id: dplId })}
        </Link>
      )}
      {!order_id && dplId === null && <span className="text-ui-fg-muted">-</span>}
    </span>
  )
}

/** Every field of one sale as the gateway gave it, its nested objects each under its own heading. */
export function SaleDrawer({ sale, onClose }: { sale: SaleView | null; onClose: () => void }) {
  const { t } = useSipayT()
  const scalar = sale ? Object.entries(sale).filter(([name, value]) => name !== "medusa" && !isNested(value)) : []
  const nested = sale ? [...NESTED, ...Object.keys(sale).filter((name) => name !== "medusa" && !NESTED.includes(name) && isNested(sale[name]))] : []
  return (
    <Drawer open={Boolean(sale)} onOpenChange={(open) => !open && onClose()}>
      <Drawer.Content data-testid="sale-drawer">
        <Drawer.Header>
          <Drawer.Title>{t("sales.drawerTitle", { id: sale?.id ?? "", invoice: sale?.invoice_id ?? "" })}</Drawer.Title>
          <Drawer.Description className="sr-only">{t("sales.drawerDescription")}</Drawer.Description>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-4 overflow-y-auto">
          {sale && (
            <>
              <section>
                <Heading level="h3" className="pb-1">{t("sales.inMedusa")}</Heading>
                <Field name="payment_session_id" value={sale.medusa.payment_session_id} />
                <Field name="attempt_number" value={sale.medusa.attempt_number} />
                <div className="flex items-start justify-between py-0.5">
                  <Text size="xsmall" className="text-ui-fg-subtle font-mono">{t("sales.links")}</Text>
                  <Text size="xsmall"><MedusaLinks sale={sale} /></Text>
                </div>
              </section>
              <section>
                <Heading level="h3" className="pb-1">{t("sales.sale")}</Heading>
                {scalar.map(([name, value]) => (
                  <Field key={name} name={name} value={value} />
                ))}
              </section>
              {nested.map((name) => (
                <section key={name} data-testid={`nested-${name}`}>
                  <Heading level="h3" className="pb-1 font-mono">{name}</Heading>
                  <Fields value={sale[name]} />
                </section>
              ))}
            </>
          )}
        </Drawer.Body>
      </Drawer.Content>
    </Drawer>
  )
}
