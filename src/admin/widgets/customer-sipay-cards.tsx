import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminCustomer, DetailWidgetProps } from "@medusajs/framework/types"
import { Alert, Button, Container, createDataTableColumnHelper, DataTable, Heading, Text, toast, useDataTable, usePrompt } from "@medusajs/ui"
import { useCallback, useEffect, useMemo, useState } from "react"
import { adminRequest } from "../lib/admin-api"
import { useSipayT } from "../lib/i18n"

/** A saved card as the admin route answers it: masked, never a token. */
type SavedCard = {
  id: string
  masked_number: string
  last4: string
  brand: "visa" | "mastercard" | "troy" | "amex" | "unknown"
  bank: string | null
  expiry_month: number | null
  expiry_year: number | null
}

const column = createDataTableColumnHelper<SavedCard>()

/** The customer's saved cards at the gateway (masked number, brand, expiry where the gateway gives one), each removable. */
const CustomerSavedCardsWidget = ({ data: customer }: DetailWidgetProps<AdminCustomer>) => {
  const { t } = useSipayT()
  const prompt = usePrompt()
  const [cards, setCards] = useState<SavedCard[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const base = `/admin/sipay/customers/${encodeURIComponent(customer.id)}/cards`

  const load = useCallback(async () => {
    try {
      setCards((await adminRequest<{ saved_cards: SavedCard[] }>(base)).saved_cards)
      setError(null)
    } catch (failure) {
      setError((failure as Error).message)
    }
  }, [base])

  useEffect(() => {
    load()
  }, [load])

  const remove = useCallback(
    async (card: SavedCard) => {
      const confirmed = await prompt({ title: t("savedCards.removeTitle", { card: card.masked_number }), description: t("savedCards.removeText"), confirmText: t("savedCards.remove"), cancelText: t("common.cancel") })
      if (!confirmed) return
      try {
        await adminRequest(`${base}/${encodeURIComponent(card.id)}`, { method: "DELETE" })
        toast.success(t("savedCards.removed"))
      } catch (failure) {
        toast.error(t("savedCards.notRemoved"), { description: (failure as Error).message })
      }
      await load()
    },
    [base, load, prompt, t]
  )

  const columns = useMemo(
    () => [
      column.accessor("masked_number", { header: t("savedCards.card"), cell: ({ getValue }) => <span className="font-mono">{getValue()}</span> }),
      column.accessor("brand", { header: t("savedCards.brand"), cell: ({ getValue }) => t(`savedCards.brands.${getValue()}`) }),
      column.accessor("bank", { header: t("savedCards.bank"), cell: ({ getValue }) => getValue() || "-" }),
      column.display({
        id: "expiry",
        header: t("savedCards.expiry"),
        cell: ({ row: { original: card } }) =>
          card.expiry_month && card.expiry_year ? `${String(card.expiry_month).padStart(2, "0")}/${card.expiry_year}` : <span className="text-ui-fg-muted">{t("savedCards.expiryUnknown")}</span>,
      }),
      column.display({
        id: "remove",
        header: "",
        cell: ({ row: { original: card } }) => (
          <Button size="small" variant="secondary" onClick={() => remove(card)} data-testid={`remove-card-${card.last4}`}>
            {t("savedCards.remove")}
          </Button>
        ),
      }),
    ],
    [remove, t]
  )
  const instance = useDataTable({ data: cards ?? [], columns, getRowId: (card) => card.id, rowCount: cards?.length ?? 0 })

  return (
    <Container className="flex flex-col gap-y-3 px-6 py-4" data-testid="customer-saved-cards">
      <div>
        <Heading level="h2">{t("savedCards.title")}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {t("savedCards.subtitle")}
        </Text>
      </div>
      {error ? <Alert variant="error">{t("savedCards.loadFailed", { message: error })}</Alert> : null}
      {cards ? (
        <DataTable instance={instance}>
          <DataTable.Table emptyState={{ empty: { heading: t("savedCards.none") } }} />
        </DataTable>
      ) : null}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "customer.details.after" })

export default CustomerSavedCardsWidget
