import { Alert, Button, Container, Heading, Input, Label, StatusBadge, Switch, Text, toast } from "@medusajs/ui"
import { FormEvent, useState } from "react"
import { adminRequest } from "../../../lib/admin-api"
import type { SettingsAnswer, SettingsFields } from "../../../lib/types"

type Key = keyof SettingsFields

const FLAGS: { key: Key; label: string; hint: string }[] = [
  { key: "capture", label: "Capture at once", hint: "Off: pre-authorize (PreAuth) and capture later from the order; the gateway cancels a pre-authorization after 20 days." },
  { key: "three_d_enabled", label: "3D Secure payments", hint: "The hosted card page and storefront 3D forms." },
  { key: "agricultural_installments", label: "Agricultural installments", hint: "Offer the 'tarım' installment type to cards that support it." },
]

const TEXTS: { key: Key; label: string; hint: string; type?: string }[] = [
  { key: "max_installments", label: "Maximum installments", hint: "1 to 12; 1 = single payment only.", type: "number" },
  { key: "sale_webhook_key", label: "Sale webhook key", hint: "As configured on the merchant panel for {backend}/hooks/payment/sipay_sipay; empty: none." },
  { key: "recurring_webhook_key", label: "Recurring webhook key", hint: "For {backend}/sipay/hooks/recurring; empty: none." },
  { key: "storefront_url", label: "Storefront URL", hint: "Where success and failure paths are taken from." },
  { key: "success_url", label: "Success URL", hint: "A URL or a path, with {cart_id}, {order_id}." },
  { key: "failure_url", label: "Failure URL", hint: "A URL or a path, with {cart_id}, {error}." },
  { key: "description_template", label: "Invoice description", hint: "{cart_id}, {order}, {store} are replaced." },
]

const OPTIONAL_TEXT = new Set<Key>(["sale_webhook_key", "recurring_webhook_key", "storefront_url", "success_url", "failure_url"])

function shown(value: unknown): string {
  return value === null || value === undefined ? "" : String(value)
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
      toast.success("Settings saved; new payments use them")
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setSaving(false)
    }
  }

  const fromDefault = (key: Key) => (answer.stored[key] === null ? "plugin option" : "saved here")

  return (
    <Container className="divide-y p-0">
      <div className="px-6 py-4">
        <Heading level="h2">Checkout settings</Heading>
        <Text size="small" className="text-ui-fg-subtle">The switches and fields below apply to every new payment attempt without a restart; the plugin options are their defaults. Direct payment is set in the configuration only.</Text>
      </div>
      <form onSubmit={save} className="flex flex-col gap-y-4 px-6 py-4" aria-label="Checkout settings">
        {error ? <Alert variant="error" data-testid="settings-error">{error}</Alert> : null}
        {FLAGS.map(({ key, label, hint }) => (
          <div key={key} className="flex items-start gap-x-3">
            <Switch id={`setting-${key}`} checked={Boolean(values[key])} onCheckedChange={(checked) => set(key, checked)} />
            <div className="flex flex-col">
              <Label htmlFor={`setting-${key}`} size="small" weight="plus">{label}</Label>
              <Text size="xsmall" className="text-ui-fg-subtle">{hint} ({fromDefault(key)}; default {String(answer.defaults[key])})</Text>
            </div>
          </div>
        ))}
        <DirectPaymentStatus enabled={answer.defaults.direct_payment_enabled} />
        {TEXTS.map(({ key, label, hint, type }) => (
          <div key={key} className="flex flex-col gap-y-1">
            <Label htmlFor={`setting-${key}`} size="small" weight="plus">{label}</Label>
            <Input
              id={`setting-${key}`}
              type={type ?? "text"}
              min={type === "number" ? 1 : undefined}
              max={type === "number" ? 12 : undefined}
              value={shown(values[key])}
              onChange={(event) => set(key, event.target.value)}
            />
            <Text size="xsmall" className="text-ui-fg-subtle">{hint} ({fromDefault(key)}; default {shown(answer.defaults[key]) || "none"})</Text>
          </div>
        ))}
        <div className="flex justify-end">
          <Button type="submit" size="small" isLoading={saving}>Save settings</Button>
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
  return (
    <div className="flex flex-col gap-y-1" data-testid="direct-payment-status">
      <div className="flex items-center gap-x-2">
        <Text size="small" weight="plus">Direct (2D) payments</Text>
        <StatusBadge color={enabled ? "green" : "grey"}>{enabled ? "On" : "Off"}</StatusBadge>
      </div>
      <Text size="xsmall" className="text-ui-fg-subtle">
        Set in the configuration, not here: the option <code>enableDirectPayment</code> (README's config reads
        SIPAY_ENABLE_DIRECT_PAYMENT=true from .env), then restart the server. Card data then passes through your
        server, which puts it in PCI scope (SAQ D).
      </Text>
    </div>
  )
}
