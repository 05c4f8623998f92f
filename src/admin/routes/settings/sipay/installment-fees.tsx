import { Button, Input, Label, Select, Text } from "@medusajs/ui"
import { useState } from "react"
import { adminRequest } from "../../../lib/admin-api"
import { formatAmount, useSipayT } from "../../../lib/i18n"
import type { InstallmentFeeRules, InstallmentPreviewAnswer } from "../../../lib/types"

type Mode = "absorb" | "gateway" | "own"
const MODES: Mode[] = ["absorb", "gateway", "own"]
const TAXES = ["inclusive", "exclusive"] as const

/**
 * Per installment count (2 to the store's maximum): the merchant absorbs the commission, or the
 * shopper pays a fee at the gateway's rate or the merchant's own; the fee line's tax treatment; and a
 * preview of what a shopper pays for a sample amount under the rules being edited.
 */
export function InstallmentFeeFields(props: {
  maxInstallments: number
  rules: InstallmentFeeRules
  tax: string
  onRules: (rules: InstallmentFeeRules) => void
  onTax: (tax: string) => void
}) {
  const { t, locale } = useSipayT()
  const [sample, setSample] = useState("1000.00")
  const [preview, setPreview] = useState<InstallmentPreviewAnswer | null>(null)
  const [previewError, setPreviewError] = useState<string | null>(null)
  const counts = Array.from({ length: Math.max(0, Math.min(12, Number(props.maxInstallments) || 1) - 1) }, (_, index) => index + 2)

  const setRule = (count: number, mode: Mode, percentage?: string, fixed?: string) => {
    const next = { ...props.rules }
    const current = next[String(count)]
    if (mode === "absorb") {
      delete next[String(count)]
    } else if (mode === "gateway") {
      next[String(count)] = { mode }
    } else {
      const old = current?.mode === "own" ? current : { percentage: 0, fixed: 0 }
      next[String(count)] = { mode, percentage: percentage === undefined ? old.percentage : Number(percentage), fixed: fixed === undefined ? old.fixed : Number(fixed) }
    }
    props.onRules(next)
  }

  const showPreview = async () => {
    setPreviewError(null)
    try {
      setPreview(await adminRequest<InstallmentPreviewAnswer>("/admin/sipay/settings/installment-fee-preview", { json: { amount: sample.trim(), installment_fees: props.rules } }))
    } catch (failure) {
      setPreview(null)
      setPreviewError((failure as Error).message)
    }
  }

  return (
    <div className="flex flex-col gap-y-3" data-testid="installment-fees">
      <div className="flex flex-col">
        <Text size="small" weight="plus">{t("settings.fees.title")}</Text>
        <Text size="xsmall" className="text-ui-fg-subtle">{t("settings.fees.hint")}</Text>
      </div>
      {counts.map((count) => {
        const rule = props.rules[String(count)] ?? { mode: "absorb" as const }
        return (
          <div key={count} className="flex flex-wrap items-end gap-x-3 gap-y-1" data-testid={`installment-fee-${count}`}>
            <div className="flex w-48 flex-col gap-y-1">
              <Label htmlFor={`fee-mode-${count}`} size="small">{t("settings.fees.count", { count })}</Label>
              <Select value={rule.mode} onValueChange={(mode) => setRule(count, mode as Mode)}>
                <Select.Trigger id={`fee-mode-${count}`}><Select.Value /></Select.Trigger>
                <Select.Content>
                  {MODES.map((mode) => (
                    <Select.Item key={mode} value={mode}>{t(`settings.fees.modes.${mode}`)}</Select.Item>
                  ))}
                </Select.Content>
              </Select>
            </div>
            {rule.mode === "own" ? (
              <>
                <div className="flex w-28 flex-col gap-y-1">
                  <Label htmlFor={`fee-percentage-${count}`} size="small">{t("settings.fees.percentage")}</Label>
                  <Input id={`fee-percentage-${count}`} type="number" min={0} max={100} step="0.01" value={String(rule.percentage)} onChange={(event) => setRule(count, "own", event.target.value)} />
                </div>
                <div className="flex w-28 flex-col gap-y-1">
                  <Label htmlFor={`fee-fixed-${count}`} size="small">{t("settings.fees.fixed")}</Label>
                  <Input id={`fee-fixed-${count}`} type="number" min={0} step="0.01" value={String(rule.fixed)} onChange={(event) => setRule(count, "own", undefined, event.target.value)} />
                </div>
              </>
            ) : null}
          </div>
        )
      })}
      <div className="flex w-64 flex-col gap-y-1">
        <Label htmlFor="fee-tax" size="small">{t("settings.fees.tax")}</Label>
        <Select value={props.tax} onValueChange={props.onTax}>
          <Select.Trigger id="fee-tax"><Select.Value /></Select.Trigger>
          <Select.Content>
            {TAXES.map((tax) => (
              <Select.Item key={tax} value={tax}>{t(`settings.fees.taxes.${tax}`)}</Select.Item>
            ))}
          </Select.Content>
        </Select>
        <Text size="xsmall" className="text-ui-fg-subtle">{t("settings.fees.taxHint")}</Text>
      </div>
      <div className="flex items-end gap-x-3">
        <div className="flex w-40 flex-col gap-y-1">
          <Label htmlFor="fee-sample" size="small">{t("settings.fees.sample")}</Label>
          <Input id="fee-sample" inputMode="decimal" value={sample} onChange={(event) => setSample(event.target.value)} />
        </div>
        <Button type="button" size="small" variant="secondary" onClick={showPreview}>{t("settings.fees.preview")}</Button>
      </div>
      {previewError ? <Text size="small" className="text-ui-fg-error">{previewError}</Text> : null}
      {preview ? (
        <div className="flex flex-col gap-y-2" data-testid="installment-fee-preview">
          {preview.table.map((row) => (
            <div key={row.card_program} className="flex flex-col">
              <Text size="small" weight="plus">{row.title}</Text>
              {row.options.map((option) => (
                <Text key={option.installments} size="xsmall">
                  {t(Number(option.fee) > 0 ? "settings.fees.rowWithFee" : "settings.fees.row", {
                    count: option.installments,
                    per: formatAmount(option.per_installment, preview.currency_code, locale),
                    total: formatAmount(option.total, preview.currency_code, locale),
                    fee: formatAmount(option.fee, preview.currency_code, locale),
                  })}
                </Text>
              ))}
            </div>
          ))}
        </div>
      ) : null}
    </div>
  )
}
