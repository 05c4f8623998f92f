import { Alert, Button, Container, Heading, Input, Label, StatusBadge, Switch, Text, toast } from "@medusajs/ui"
import { FormEvent, useState } from "react"
import { adminRequest } from "../../../lib/admin-api"
import { switchText } from "../../../lib/gateway-values"
import { useSipayT, type Translate } from "../../../lib/i18n"
import { WithCode } from "../../../lib/with-code"
import type { InstallmentFeeRules, SettingsAnswer, SettingsFields } from "../../../lib/types"
import { InstallmentFeeFields } from "./installment-fees"

type Key = keyof SettingsFields

/** Switches; label and hint are t("settings.flags.<key>.label" / ".hint"). */
const FLAGS: { key: Key }[] = [{ key: "capture" }, { key: "three_d_enabled" }, { key: "agricultural_installments" }]

/** Text fields; label and hint are t("settings.texts.<key>.label" / ".hint"). */
const TEXTS: { key: Key; type?: string }[] = [
  { key: "max_installments", type: "number" },
  { key: "sale_webhook_key" },
  { key: "recurring_webhook_key" },
  { key: "storefront_url" },
  { key: "success_url" },
  { key: "failure_url" },
  { key: "description_template" },
]

const OPTIONAL_TEXT = new Set<Key>(["sale_webhook_key", "recurring_webhook_key", "storefront_url", "success_url", "failure_url"])

function shown(value: unknown): string {
  return value === null || value === undefined ? "" : String(value)
}

/** Where a text setting comes from and its default: none, the customer-language invoice description (null), or the value. */
function textOrigin(key: Key, origin: string, value: unknown, t: Translate): string {
  if (key === "description_template" && (value === null || value === undefined)) return t("settings.originDescription", { origin })
  return shown(value) ? t("settings.origin", { origin, value: shown(value) }) : t("settings.originNone", { origin })
}

/**
 * Each field shows the setting in effect. Saving sends null for a value equal to the option's
 * default (so it keeps following the options) and the value otherwise ("" clears an optional text).
 */
function changesFrom(values: Record<Key, unknown>, defaults: SettingsFields): Record<string, unknown> {
  const changes: Record<string, unknown> = {}
  for (const key of Object.keys(values) as Key[]) {
    let value = values[key]
    // Direct payment is the configuration's decision alone: clear any value saved here before.
    if (key === "direct_payment_enabled") {
      changes[key] = null
      continue
    }
    if (key === "max_installments") value = Number(value)
    if (key === "installment_fees") {
      changes[key] = JSON.stringify(value ?? {}) === JSON.stringify(defaults[key] ?? {}) ? null : value
      continue
    }
    if (typeof value === "string") value = value.trim()
    if (value === shown(defaults[key]) || value === defaults[key]) {
      changes[key] = null
    } else if (value === "" && !OPTIONAL_TEXT.has(key)) {
      changes[key] = null
    } else {
      changes[key] = value
    }
  }
  return changes
}

export function SettingsForm({ answer, onSaved }: { answer: SettingsAnswer; onSaved: (answer: SettingsAnswer) => void }) {
  const { t } = useSipayT()
  const [values, setValues] = useState<Record<Key, unknown>>({ ...answer.settings })
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  const set = (key: Key, value: unknown) => setValues((current) => ({ ...current, [key]: value }))

  const save = async (event: FormEvent) => {
    event.preventDefault()
    setSaving(true)
    setError(null)
    try {
      const saved = await adminRequest<SettingsAnswer>("/admin/sipay/settings", { json: changesFrom(values, answer.defaults) })
      setValues({ ...saved.settings })
      onSaved(saved)
      toast.success(t("settings.saved"))
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setSaving(false)
    }
  }

  const fromDefault = (key: Key) => (answer.stored[key] === null ? t("settings.fromOption") : t("settings.fromHere"))

  return (
    <Container className="divide-y p-0">
      <div className="px-6 py-4">
        <Heading level="h2">{t("settings.checkout")}</Heading>
        <Text size="small" className="text-ui-fg-subtle">{t("settings.checkoutHint")}</Text>
      </div>
      <form onSubmit={save} className="flex flex-col gap-y-4 px-6 py-4" aria-label={t("settings.checkout")}>
        {error ? <Alert variant="error" data-testid="settings-error">{error}</Alert> : null}
        {FLAGS.map(({ key }) => (
          <div key={key} className="flex items-start gap-x-3">
            <Switch id={`setting-${key}`} checked={Boolean(values[key])} onCheckedChange={(checked) => set(key, checked)} />
            <div className="flex flex-col">
              <Label htmlFor={`setting-${key}`} size="small" weight="plus">{t(`settings.flags.${key}.label`)}</Label>
              <Text size="xsmall" className="text-ui-fg-subtle"><WithCode text={`${t(`settings.flags.${key}.hint`)} ${t("settings.originSwitch", { origin: fromDefault(key), value: switchText(answer.defaults[key], t) })}`} /></Text>
            </div>
          </div>
        ))}
        <DirectPaymentStatus enabled={answer.defaults.direct_payment_enabled} />
        {TEXTS.map(({ key, type }) => (
          <div key={key} className="flex flex-col gap-y-1">
            <Label htmlFor={`setting-${key}`} size="small" weight="plus">{t(`settings.texts.${key}.label`)}</Label>
            <Input
              id={`setting-${key}`}
              type={type ?? "text"}
              min={type === "number" ? 1 : undefined}
              max={type === "number" ? 12 : undefined}
              value={shown(values[key])}
              onChange={(event) => set(key, event.target.value)}
            />
            <Text size="xsmall" className="text-ui-fg-subtle"><WithCode text={`${t(`settings.texts.${key}.hint`)} ${textOrigin(key, fromDefault(key), answer.defaults[key], t)}`} /></Text>
          </div>
        ))}
        <InstallmentFeeFields
          maxInstallments={Number(values.max_installments)}
          rules={(values.installment_fees ?? {}) as InstallmentFeeRules}
          tax={String(values.installment_fee_tax ?? "inclusive")}
          onRules={(rules) => set("installment_fees", rules)}
          onTax={(tax) => set("installment_fee_tax", tax)}
        />
        <div className="flex justify-end">
          <Button type="submit" size="small" isLoading={saving}>{t("settings.save")}</Button>
        </div>
      </form>
    </Container>
  )
}

/**
 * Direct (2D) payment puts the store's server in PCI scope (card data passes through it), and the
 * provider, isolated in Medusa's payment module, reads only its options: it is shown, not switched.
 */
function DirectPaymentStatus({ enabled }: { enabled: boolean }) {
  const { t } = useSipayT()
  return (
    <div className="flex flex-col gap-y-1" data-testid="direct-payment-status">
      <div className="flex items-center gap-x-2">
        <Text size="small" weight="plus">{t("settings.direct")}</Text>
        <StatusBadge color={enabled ? "green" : "grey"}>{enabled ? t("settings.on") : t("settings.off")}</StatusBadge>
      </div>
      <Text size="xsmall" className="text-ui-fg-subtle">
        <WithCode text={t("settings.directHint")} />
      </Text>
    </div>
  )
}
