import { Drawer, Heading, Text } from "@medusajs/ui"
import { Link } from "react-router-dom"
import type { SaleView } from "../../../lib/sales-report"
import { useSipayT } from "../../lib/i18n"
import { fieldLabel, fieldValue, isNested, nestedLabel, nestedNames, saleRows } from "./sale-fields"

function Field({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex items-start justify-between gap-x-4 py-0.5" data-field={testId}>
      <Text size="xsmall" leading="compact" className="text-ui-fg-subtle">
        {label}
      </Text>
      <Text size="xsmall" leading="compact" className="font-mono break-all text-right">
        {value}
      </Text>
    </div>
  )
}

/** An object's fields, labelled, nested objects indented; an array's entries one after another. */
function Fields({ value }: { value: unknown }) {
  const { t, locale } = useSipayT()
  if (value === null || value === undefined) {
    return <Text size="xsmall" className="text-ui-fg-muted">-</Text>
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
  if (!isNested(value)) {
    return <Text size="xsmall" className="font-mono">{fieldValue("", value, t, locale)}</Text>
  }
  return (
    <div className="flex flex-col">
      {Object.entries(value as Record<string, unknown>).map(([name, inner]) =>
        isNested(inner) ? (
          <div key={name} className="py-1">
            <Text size="xsmall" weight="plus">{fieldLabel(name, t)}</Text>
            <div className="pl-3"><Fields value={inner} /></div>
          </div>
        ) : (
          <Field key={name} label={fieldLabel(name, t)} value={fieldValue(name, inner, t, locale)} testId={name} />
        )
      )}
    </div>
  )
}

function NoEntries() {
  const { t } = useSipayT()
  return <Text size="xsmall" className="text-ui-fg-muted">{t("sales.noEntries")}</Text>
}

/** What a sale that paid no order is to Medusa (the API's sale_kind), in words. */
const KIND_KEYS: Record<string, string> = {
  given_back: "sales.kinds.givenBack",
  attempt: "sales.kinds.attempt",
  recurring_charge: "sales.kinds.recurringCharge",
}

export function MedusaLinks({ sale }: { sale: SaleView }) {
  const { t } = useSipayT()
  const { order_id, payment_link_id, related_order_id, sale_kind } = sale.medusa
  const dplId = Number(sale.dpl_id) > 0 ? Number(sale.dpl_id) : null
  const kind = KIND_KEYS[sale_kind]
  return (
    <span className="flex flex-col gap-y-0.5">
      {order_id && (
        <Link to={`/orders/${order_id}`} className="text-ui-fg-interactive hover:underline" onClick={(e) => e.stopPropagation()} data-testid="order-link">
          {t("sales.order")}
        </Link>
      )}
      {kind && (
        <span className="text-ui-fg-subtle" data-testid="sale-kind" data-sale-kind={sale_kind}>
          {t(kind)}
        </span>
      )}
      {!order_id && related_order_id && (
        <Link to={`/orders/${related_order_id}`} className="text-ui-fg-interactive hover:underline" onClick={(e) => e.stopPropagation()} data-testid="related-order-link">
          {t("sales.relatedOrder")}
        </Link>
      )}
      {dplId !== null && (
        <Link to={`/payment-links?${payment_link_id ? `id=${payment_link_id}` : `dpl_id=${dplId}`}`} className="text-ui-fg-interactive hover:underline" onClick={(e) => e.stopPropagation()} data-testid="payment-link-link">
          {t("sales.paymentLink", { id: dplId })}
        </Link>
      )}
      {!order_id && !related_order_id && !kind && dplId === null && <span className="text-ui-fg-muted">-</span>}
    </span>
  )
}

/** Every field of one sale as the gateway gave it, labelled in the user's language, its nested objects each under its own heading. */
export function SaleDrawer({ sale, onClose }: { sale: SaleView | null; onClose: () => void }) {
  const { t, locale } = useSipayT()
  const record = sale as Record<string, unknown> | null
  return (
    <Drawer open={Boolean(sale)} onOpenChange={(open) => !open && onClose()}>
      <Drawer.Content data-testid="sale-drawer">
        <Drawer.Header>
          <Drawer.Title>{t("sales.drawerTitle", { id: sale?.id ?? "", invoice: sale?.invoice_id ?? "" })}</Drawer.Title>
          <Drawer.Description className="sr-only">{t("sales.drawerDescription")}</Drawer.Description>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-4 overflow-y-auto">
          {sale && record && (
            <>
              <section>
                <Heading level="h3" className="pb-1">{t("sales.inMedusa")}</Heading>
                <Field label={fieldLabel("payment_session_id", t)} value={fieldValue("payment_session_id", sale.medusa.payment_session_id, t, locale)} />
                <Field label={fieldLabel("attempt_number", t)} value={fieldValue("attempt_number", sale.medusa.attempt_number, t, locale)} />
                <div className="flex items-start justify-between py-0.5">
                  <Text size="xsmall" className="text-ui-fg-subtle">{t("sales.links")}</Text>
                  <Text size="xsmall"><MedusaLinks sale={sale} /></Text>
                </div>
              </section>
              <section>
                <Heading level="h3" className="pb-1">{t("sales.sale")}</Heading>
                {saleRows(record, t, locale).map((row) => (
                  <Field key={row.name} label={row.label} value={row.value} testId={row.name} />
                ))}
              </section>
              {nestedNames(record).map((name) => (
                <section key={name} data-testid={`nested-${name}`}>
                  <Heading level="h3" className="pb-1">{nestedLabel(name, t)}</Heading>
                  <Fields value={record[name]} />
                </section>
              ))}
            </>
          )}
        </Drawer.Body>
      </Drawer.Content>
    </Drawer>
  )
}
