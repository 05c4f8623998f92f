import { Alert, Button, Drawer, Input, Label, Switch, Text, Textarea } from "@medusajs/ui"
import { ChangeEvent, FormEvent, useEffect, useState } from "react"
import { adminRequest } from "../../lib/admin-api"
import type { PaymentLink } from "../../lib/types"

const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"]
const PHOTO_MAX_BYTES = 2 * 1024 * 1024

function inDays(days: number): string {
  return new Date(Date.now() + 3 * 3600_000 + days * 86400_000).toISOString().slice(0, 10)
}

/** Fields the gateway requires; each is flagged only once the owner has left it empty or tried to create. */
const REQUIRED_FIELDS: { name: string; id: string; message: string }[] = [
  { name: "name_of_product", id: "link-name", message: "Give the product's name" },
  { name: "description", id: "link-description", message: "Give a description" },
  { name: "amount", id: "link-amount", message: "Give the amount" },
  { name: "expire_date", id: "link-expire-date", message: "Choose the expiry date" },
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
  const [photo, setPhoto] = useState<File | null>(null)
  const [preview, setPreview] = useState<string | null>(null)
  const [photoProblem, setPhotoProblem] = useState<string | null>(null)
  const [editable, setEditable] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // Field id -> message, set on leaving a required field empty or on a create attempt; nothing before.
  const [problems, setProblems] = useState<Record<string, string>>({})

  const checkField = (id: string, value: string) => {
    const field = REQUIRED_FIELDS.find((candidate) => candidate.id === id)
    if (!field) return
    setProblems((current) => {
      const next = { ...current }
      if (value.trim() === "") next[id] = field.message
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

  const choosePhoto = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null
    setPhoto(file)
    setPreview(file ? URL.createObjectURL(file) : null)
    setProblems(({ "link-photo": _, ...rest }) => (file ? rest : { ...rest, "link-photo": "Choose a product photo" }))
    if (file && !PHOTO_TYPES.includes(file.type)) {
      setPhotoProblem(`The photo must be a JPEG, PNG, WebP or GIF image (this one is ${file.type || "of an unknown type"})`)
    } else if (file && file.size > PHOTO_MAX_BYTES) {
      setPhotoProblem(`The photo is ${(file.size / 1048576).toFixed(1)} MB; at most 2 MB is accepted`)
    } else {
      setPhotoProblem(null)
    }
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const missing: Record<string, string> = {}
    for (const field of REQUIRED_FIELDS) {
      if (String(form.get(field.name) ?? "").trim() === "") missing[field.id] = field.message
    }
    if (!photo) missing["link-photo"] = "Choose a product photo"
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
            <Drawer.Title>Create a payment link</Drawer.Title>
          </Drawer.Header>
          <Drawer.Body className="flex flex-col gap-y-4 overflow-y-auto">
            {error ? <Alert variant="error" data-testid="create-link-error">{error}</Alert> : null}
            <Field id="link-name" label="Product" problem={problems["link-name"]}>
              <Input id="link-name" name="name_of_product" onBlur={onLeave} onChange={onEdit} {...invalid("link-name")} />
            </Field>
            <Field id="link-description" label="Description" problem={problems["link-description"]}>
              <Textarea id="link-description" name="description" onBlur={onLeave} onChange={onEdit} {...invalid("link-description")} />
            </Field>
            <div className="grid grid-cols-2 gap-x-4">
              <Field id="link-amount" label="Amount" problem={problems["link-amount"]}>
                <Input id="link-amount" name="amount" inputMode="decimal" placeholder="250.00" onBlur={onLeave} onChange={onEdit} {...invalid("link-amount")} />
              </Field>
              <Field id="link-currency" label="Currency">
                <select id="link-currency" name="currency_code" defaultValue="TRY" className="bg-ui-bg-field shadow-borders-base txt-compact-small h-8 rounded-md px-2">
                  <option value="TRY">TRY</option>
                  <option value="USD">USD</option>
                  <option value="EUR">EUR</option>
                </select>
              </Field>
            </div>
            <div className="flex items-center gap-x-2">
              <Switch id="link-editable" checked={editable} onCheckedChange={setEditable} />
              <Label htmlFor="link-editable" size="small">The payer may change the amount</Label>
            </div>
            <div className="grid grid-cols-2 gap-x-4">
              <Field id="link-expire-date" label="Expires on" hint="Istanbul time, the gateway's clock" problem={problems["link-expire-date"]}>
                <Input id="link-expire-date" name="expire_date" type="date" defaultValue={inDays(30)} onBlur={onLeave} onChange={onEdit} {...invalid("link-expire-date")} />
              </Field>
              <Field id="link-expire-hour" label="At hour (optional)" hint="0-23; without it, end of day">
                <Input id="link-expire-hour" name="expire_hour" type="number" min={0} max={23} />
              </Field>
            </div>
            <Field id="link-max-uses" label="Maximum uses (optional)" hint="Empty: no limit">
              <Input id="link-max-uses" name="max_number_of_uses" type="number" min={1} />
            </Field>
            <Field id="link-photo" label="Product photo (required)" hint="JPEG, PNG, WebP or GIF, at most 2 MB; the gateway shows it on the payer page" problem={problems["link-photo"]}>
              <input id="link-photo" name="product_photo" type="file" accept={PHOTO_TYPES.join(",")} onChange={choosePhoto} aria-required="true" {...invalid("link-photo")} className="txt-compact-small" />
            </Field>
            {photoProblem ? <Alert variant="error" data-testid="photo-problem">{photoProblem}</Alert> : null}
            {preview && !photoProblem ? (
              <img src={preview} alt={`Preview of ${photo?.name ?? "the photo"}`} data-testid="photo-preview" className="h-32 w-32 self-start rounded-lg border object-contain" />
            ) : null}
          </Drawer.Body>
          <Drawer.Footer>
            <Drawer.Close asChild>
              <Button variant="secondary" type="button">Cancel</Button>
            </Drawer.Close>
            <Button type="submit" isLoading={busy} disabled={Boolean(photoProblem)}>Create link</Button>
          </Drawer.Footer>
        </form>
      </Drawer.Content>
    </Drawer>
  )
}
