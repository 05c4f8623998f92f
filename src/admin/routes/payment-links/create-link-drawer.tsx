import { Alert, Button, Drawer, Input, Label, Select, Switch, Text, Textarea } from "@medusajs/ui"
import { FormEvent, useEffect, useState } from "react"
import { adminRequest } from "../../lib/admin-api"
import { DayPicker } from "../../lib/day-picker"
import { useSipayT } from "../../lib/i18n"
import type { PaymentLink } from "../../lib/types"
import { PhotoUpload } from "./photo-upload"

const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"]
const PHOTO_MAX_BYTES = 2 * 1024 * 1024
const CURRENCIES = ["TRY", "USD", "EUR"]

function inDays(days: number): string {
  return new Date(Date.now() + 3 * 3600_000 + days * 86400_000).toISOString().slice(0, 10)
}

/** Fields the gateway requires; each is flagged only once the owner has left it empty or tried to create (message: t("paymentLinks.required.<name>")). */
const REQUIRED_FIELDS: { name: string; id: string }[] = [
  { name: "name_of_product", id: "link-name" },
  { name: "description", id: "link-description" },
  { name: "amount", id: "link-amount" },
  { name: "expire_date", id: "link-expire-date" },
]

function Field({ id, label, hint, problem, children }: { id: string; label: string; hint?: string; problem?: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-y-1">
      <Label htmlFor={id} size="small" weight="plus">{label}</Label>
      {children}
      {hint ? <Text size="xsmall" className="text-ui-fg-subtle">{hint}</Text> : null}
      {problem ? <Text size="xsmall" className="text-ui-fg-error" id={`${id}-problem`} data-testid="field-problem">{problem}</Text> : null}
    </div>
  )
}

/** The create form: every field of dpl/create, the photo previewed and checked (type, 2 MB) before it is sent. */
export function CreateLinkDrawer({ open, onOpenChange, onCreated }: { open: boolean; onOpenChange: (open: boolean) => void; onCreated: (link: PaymentLink) => void }) {
  const { t } = useSipayT()
  const [photo, setPhoto] = useState<File | null>(null)
  const [preview, setPreview] = useState<string | null>(null)
  const [photoProblem, setPhotoProblem] = useState<string | null>(null)
  const [editable, setEditable] = useState(false)
  const [currency, setCurrency] = useState("TRY")
  const [expireDate, setExpireDate] = useState(() => inDays(30))
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // Field id -> message, set on leaving a required field empty or on a create attempt; nothing before.
  const [problems, setProblems] = useState<Record<string, string>>({})

  const checkField = (id: string, value: string) => {
    const field = REQUIRED_FIELDS.find((candidate) => candidate.id === id)
    if (!field) return
    setProblems((current) => {
      const next = { ...current }
      if (value.trim() === "") next[id] = t(`paymentLinks.required.${field.name}`)
      else delete next[id]
      return next
    })
  }
  const onLeave = (event: React.FocusEvent<HTMLInputElement | HTMLTextAreaElement>) => checkField(event.currentTarget.id, event.currentTarget.value)
  const onEdit = (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (problems[event.currentTarget.id]) checkField(event.currentTarget.id, event.currentTarget.value)
  }
  const invalid = (id: string) => (problems[id] ? { "aria-invalid": true as const, "aria-describedby": `${id}-problem` } : {})

  useEffect(() => () => { if (preview) URL.revokeObjectURL(preview) }, [preview])

  const chooseExpireDate = (day: string) => {
    setExpireDate(day)
    checkField("link-expire-date", day)
  }

  const choosePhoto = (file: File | null) => {
    setPhoto(file)
    setPreview(file ? URL.createObjectURL(file) : null)
    setProblems(({ "link-photo": _, ...rest }) => (file ? rest : { ...rest, "link-photo": t("paymentLinks.required.photo") }))
    if (file && !PHOTO_TYPES.includes(file.type)) {
      setPhotoProblem(t("paymentLinks.photoType", { type: file.type || t("paymentLinks.unknownType") }))
    } else if (file && file.size > PHOTO_MAX_BYTES) {
      setPhotoProblem(t("paymentLinks.photoSize", { size: (file.size / 1048576).toFixed(1) }))
    } else {
      setPhotoProblem(null)
    }
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    // The pickers hold their values in state, not in form fields.
    form.set("currency_code", currency)
    form.set("expire_date", expireDate)
    if (photo) form.set("product_photo", photo)
    const missing: Record<string, string> = {}
    for (const field of REQUIRED_FIELDS) {
      if (String(form.get(field.name) ?? "").trim() === "") missing[field.id] = t(`paymentLinks.required.${field.name}`)
    }
    if (!photo) missing["link-photo"] = t("paymentLinks.required.photo")
    setProblems(missing)
    if (photoProblem || Object.keys(missing).length) {
      return
    }
    form.set("is_amount_set_by_user", editable ? "true" : "false")
    setBusy(true)
    setError(null)
    try {
      const { payment_link } = await adminRequest<{ payment_link: PaymentLink }>("/admin/sipay/payment-links", { method: "POST", form })
      onCreated(payment_link)
      setPhoto(null)
      setPreview(null)
      setEditable(false)
      setCurrency("TRY")
      setExpireDate(inDays(30))
      setProblems({})
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Drawer open={open} onOpenChange={onOpenChange}>
      <Drawer.Content aria-describedby={undefined}>
        <form onSubmit={submit} className="flex h-full flex-col overflow-hidden" id="create-payment-link" noValidate>
          <Drawer.Header>
            <Drawer.Title>{t("paymentLinks.createTitle")}</Drawer.Title>
          </Drawer.Header>
          <Drawer.Body className="flex flex-col gap-y-4 overflow-y-auto">
            {error ? <Alert variant="error" data-testid="create-link-error">{error}</Alert> : null}
            <Field id="link-name" label={t("paymentLinks.product")} problem={problems["link-name"]}>
              <Input id="link-name" name="name_of_product" onBlur={onLeave} onChange={onEdit} {...invalid("link-name")} />
            </Field>
            <Field id="link-description" label={t("paymentLinks.description")} problem={problems["link-description"]}>
              <Textarea id="link-description" name="description" onBlur={onLeave} onChange={onEdit} {...invalid("link-description")} />
            </Field>
            <div className="grid grid-cols-2 gap-x-4">
              <Field id="link-amount" label={t("paymentLinks.amount")} problem={problems["link-amount"]}>
                <Input id="link-amount" name="amount" inputMode="decimal" placeholder="250.00" onBlur={onLeave} onChange={onEdit} {...invalid("link-amount")} />
              </Field>
              <Field id="link-currency" label={t("paymentLinks.currency")}>
                <Select value={currency} onValueChange={setCurrency}>
                  <Select.Trigger id="link-currency"><Select.Value /></Select.Trigger>
                  <Select.Content>
                    {CURRENCIES.map((code) => (
                      <Select.Item key={code} value={code}>{code}</Select.Item>
                    ))}
                  </Select.Content>
                </Select>
              </Field>
            </div>
            <div className="flex items-center gap-x-2">
              <Switch id="link-editable" checked={editable} onCheckedChange={setEditable} />
              <Label htmlFor="link-editable" size="small">{t("paymentLinks.payerMayChangeSwitch")}</Label>
            </div>
            <div className="grid grid-cols-2 gap-x-4">
              <Field id="link-expire-date" label={t("paymentLinks.expiresOn")} hint={t("paymentLinks.expiresHint")} problem={problems["link-expire-date"]}>
                <DayPicker id="link-expire-date" aria-label={t("paymentLinks.expiresOn")} day={expireDate} onDayChange={chooseExpireDate} isInvalid={Boolean(problems["link-expire-date"])} aria-describedby={problems["link-expire-date"] ? "link-expire-date-problem" : undefined} />
              </Field>
              <Field id="link-expire-hour" label={t("paymentLinks.atHour")} hint={t("paymentLinks.atHourHint")}>
                <Input id="link-expire-hour" name="expire_hour" type="number" min={0} max={23} />
              </Field>
            </div>
            <Field id="link-max-uses" label={t("paymentLinks.maxUses")} hint={t("paymentLinks.maxUsesHint")}>
              <Input id="link-max-uses" name="max_number_of_uses" type="number" min={1} />
            </Field>
            <Field id="link-photo" label={t("paymentLinks.photoRequired")} problem={problems["link-photo"]}>
              <PhotoUpload id="link-photo" label={photo?.name ?? t("paymentLinks.photoChoose")} hint={t("paymentLinks.photoHint")} accept={PHOTO_TYPES} invalid={Boolean(problems["link-photo"])} onChoose={choosePhoto} />
            </Field>
            {photoProblem ? <Alert variant="error" data-testid="photo-problem">{photoProblem}</Alert> : null}
            {preview && !photoProblem ? (
              <img src={preview} alt={t("paymentLinks.preview", { name: photo?.name ?? t("paymentLinks.thePhoto") })} data-testid="photo-preview" className="h-32 w-32 self-start rounded-lg border object-contain" />
            ) : null}
          </Drawer.Body>
          <Drawer.Footer>
            <Drawer.Close asChild>
              <Button variant="secondary" type="button">{t("common.cancel")}</Button>
            </Drawer.Close>
            <Button type="submit" isLoading={busy} disabled={Boolean(photoProblem)}>{t("paymentLinks.create")}</Button>
          </Drawer.Footer>
        </form>
      </Drawer.Content>
    </Drawer>
  )
}
