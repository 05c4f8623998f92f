import { Button, Input, Label, Select } from "@medusajs/ui"
import { FormEvent, ReactNode, useEffect, useState } from "react"
import { KNOWN_SALE_STATES, SALE_CURRENCIES } from "../../../lib/sales-report"
import { DayPicker } from "../../lib/day-picker"
import { saleStateText } from "../../lib/gateway-values"
import { useSipayT } from "../../lib/i18n"
import type { SalesFilters } from "./filters"

const ANY = "any"

function Labelled({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-y-1">
      <Label htmlFor={id} size="xsmall" weight="plus">{label}</Label>
      {children}
    </div>
  )
}

function Choice({ id, value, onChange, options }: { id: string; value: string; onChange: (value: string) => void; options: { value: string; label: string }[] }) {
  const { t } = useSipayT()
  return (
    <Select value={value || ANY} onValueChange={(next) => onChange(next === ANY ? "" : next)}>
      <Select.Trigger id={id}><Select.Value /></Select.Trigger>
      <Select.Content>
        <Select.Item value={ANY}>{t("common.any")}</Select.Item>
        {options.map((option) => (
          <Select.Item key={option.value} value={option.value}>{option.label}</Select.Item>
        ))}
      </Select.Content>
    </Select>
  )
}

/** The date (mandatory) and the gateway's optional filters; submitting puts them in the page's address. */
export function FiltersForm({ filters, seenStates, onSearch }: { filters: SalesFilters; seenStates: { id: number; label: string }[]; onSearch: (filters: SalesFilters) => void }) {
  const { t } = useSipayT()
  const [draft, setDraft] = useState(filters)
  useEffect(() => setDraft(filters), [filters])
  const set = (name: keyof SalesFilters) => (value: string) => setDraft((current) => ({ ...current, [name]: value }))
  const states = [...KNOWN_SALE_STATES, ...seenStates.filter((seen) => !KNOWN_SALE_STATES.some((known) => known.id === seen.id))]
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSearch(draft)
  }
  return (
    <form onSubmit={submit} className="grid grid-cols-2 gap-3 px-6 py-4 md:grid-cols-4 xl:grid-cols-[minmax(168px,1.4fr)_repeat(6,minmax(0,1fr))_auto]" aria-label={t("sales.filters")}>
      <Labelled id="sales-date" label={t("sales.date")}>
        <DayPicker id="sales-date" size="small" aria-label={t("sales.date")} isRequired day={draft.date} onDayChange={set("date")} />
      </Labelled>
      <Labelled id="sales-invoice" label={t("sales.invoiceId")}>
        <Input id="sales-invoice" size="small" value={draft.invoice_id} onChange={(e) => set("invoice_id")(e.target.value)} />
      </Labelled>
      <Labelled id="sales-currency" label={t("sales.currency")}>
        <Choice id="sales-currency" value={draft.currency_id} onChange={set("currency_id")} options={SALE_CURRENCIES.map((c) => ({ value: String(c.id), label: c.code }))} />
      </Labelled>
      <Labelled id="sales-method" label={t("sales.paymentMethod")}>
        <Choice id="sales-method" value={draft.payment_method_id} onChange={set("payment_method_id")} options={[{ value: "1", label: t("sales.creditCard") }]} />
      </Labelled>
      <Labelled id="sales-min" label={t("sales.minGross")}>
        <Input id="sales-min" size="small" inputMode="decimal" value={draft.min_amount} onChange={(e) => set("min_amount")(e.target.value)} />
      </Labelled>
      <Labelled id="sales-max" label={t("sales.maxGross")}>
        <Input id="sales-max" size="small" inputMode="decimal" value={draft.max_amount} onChange={(e) => set("max_amount")(e.target.value)} />
      </Labelled>
      <Labelled id="sales-state" label={t("sales.state")}>
        <Choice id="sales-state" value={draft.transaction_state} onChange={set("transaction_state")} options={states.map((s) => ({ value: String(s.id), label: saleStateText({ transaction_state_id: s.id, transaction_state_label: s.label }, t) }))} />
      </Labelled>
      <div className="flex items-end">
        <Button type="submit" size="small" id="sales-search">{t("sales.search")}</Button>
      </div>
    </form>
  )
}
