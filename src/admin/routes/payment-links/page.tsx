import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Link as LinkIcon } from "@medusajs/icons"
import { Alert, Button, Container, createDataTableColumnHelper, DataTable, Text, toast, useDataTable } from "@medusajs/ui"
import { useCallback, useEffect, useMemo, useState } from "react"
import { adminRequest } from "../../lib/admin-api"
import { formatAmount, formatGatewayTime, useSipayT } from "../../lib/i18n"
import { ListToolbar } from "../../lib/list-toolbar"
import { openOnRowClick, usePaginationTranslations } from "../../lib/table"
import type { PaymentLink, PaymentLinkList } from "../../lib/types"
import { CreateLinkDrawer } from "./create-link-drawer"
import { copyLink, LinkDrawer } from "./link-drawer"
import { LinkStatus, usesText } from "./link-status"

const PAGE_SIZE = 20

const column = createDataTableColumnHelper<PaymentLink>()

function useColumns() {
  const { t, locale } = useSipayT()
  return useMemo(() => [
    column.accessor("name_of_product", { header: t("paymentLinks.product"), cell: ({ getValue }) => <span data-testid="link-row">{getValue()}</span> }),
    column.accessor("amount", { header: t("paymentLinks.amount"), cell: ({ row }) => formatAmount(row.original.amount, row.original.currency_code, locale) }),
    column.display({ id: "uses", header: t("paymentLinks.uses"), cell: ({ row }) => <span data-testid="row-uses">{usesText(row.original)}</span> }),
    column.accessor("expire_date", { header: t("paymentLinks.expires"), cell: ({ getValue }) => t("paymentLinks.expiresValue", { date: formatGatewayTime(getValue(), locale) }) }),
    column.accessor("status", { header: t("paymentLinks.status"), cell: ({ getValue }) => <LinkStatus status={getValue()} /> }),
    column.display({
      id: "emailed",
      header: t("paymentLinks.emailed"),
      cell: ({ row }) => <span data-testid="row-emailed">{row.original.emailed.count ? t("paymentLinks.addresses", { count: row.original.emailed.recipients.length }) : t("paymentLinks.no")}</span>,
    }),
    column.display({
      id: "copy",
      header: t("paymentLinks.link"),
      meta: { ___truncateTooltip: false, ___alignMetaData: { align: "right" } },
      cell: ({ row }) => <Button size="small" variant="transparent" onClick={(event) => { event.stopPropagation(); copyLink(row.original.link, t) }}>{t("paymentLinks.copy")}</Button>,
    }),
  ], [t, locale])
}

/** Payment links (DPL): created, e-mailed and followed from the admin instead of the gateway's panel. */
const PaymentLinksPage = () => {
  const { t } = useSipayT()
  const [list, setList] = useState<PaymentLinkList | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [loading, setLoading] = useState(true)
  const [query, setQuery] = useState("")
  const [page, setPage] = useState(0)
  const [creating, setCreating] = useState(false)
  const [selected, setSelected] = useState<PaymentLink | null>(null)
  const translations = usePaginationTranslations()

  const load = useCallback(async () => {
    setLoading(true)
    try {
      const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(page * PAGE_SIZE) })
      if (query) params.set("q", query)
      setList(await adminRequest<PaymentLinkList>(`/admin/sipay/payment-links?${params}`))
      setError(null)
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setLoading(false)
    }
  }, [page, query])

  useEffect(() => {
    load()
  }, [load])

  // Opened from elsewhere (the Sales page links a sale to its link): /payment-links?id=spl_...
  useEffect(() => {
    const id = new URLSearchParams(window.location.search).get("id")
    if (id) {
      adminRequest<{ payment_link: PaymentLink }>(`/admin/sipay/payment-links/${encodeURIComponent(id)}`)
        .then(({ payment_link }) => setSelected(payment_link))
        .catch((failure: Error) => setError(failure.message))
    }
  }, [])

  const changed = (link: PaymentLink) => {
    setSelected(link)
    setList((current) => current && { ...current, payment_links: current.payment_links.map((entry) => (entry.id === link.id ? link : entry)) })
  }

  // The API searches and pages; the table debounces the search box (300 ms) and goes back to the first page.
  const instance = useDataTable({
    data: list?.payment_links ?? [],
    columns: useColumns(),
    getRowId: (link) => link.id,
    rowCount: list?.count ?? 0,
    isLoading: loading && !list,
    onRowClick: openOnRowClick(setSelected),
    search: { state: query, onSearchChange: (value) => setQuery(value.trim()) },
    pagination: { state: { pageIndex: page, pageSize: PAGE_SIZE }, onPaginationChange: (state) => setPage(state.pageIndex) },
  })

  const empty = (filtered: boolean) => (
    <div className="flex flex-col items-center gap-y-2 text-center" data-testid="links-empty">
      <Text weight="plus">{filtered ? t("paymentLinks.noMatch") : t("paymentLinks.none")}</Text>
      <Text size="small" className="text-ui-fg-subtle">{filtered ? t("paymentLinks.tryAnother") : t("paymentLinks.createHint")}</Text>
      {!filtered ? <Button size="small" variant="secondary" onClick={() => setCreating(true)}>{t("paymentLinks.create")}</Button> : null}
    </div>
  )

  return (
    <Container className="divide-y p-0">
      <DataTable instance={instance}>
        <ListToolbar title={t("paymentLinks.title")} subtitle={t("paymentLinks.subtitle")}>
            <DataTable.Search placeholder={t("paymentLinks.searchPlaceholder")} />
            <Button size="small" variant="secondary" onClick={() => setCreating(true)}>{t("paymentLinks.create")}</Button>
        </ListToolbar>
        {error ? (
          <div className="px-6 py-4">
            <Alert variant="error" dismissible={false} data-testid="links-error">
              <div className="flex items-center justify-between gap-x-4">
                <span>{t("paymentLinks.loadError", { error })}</span>
                <Button size="small" variant="secondary" onClick={load}>{t("common.tryAgain")}</Button>
              </div>
            </Alert>
          </div>
        ) : (
          <>
            <DataTable.Table emptyState={{ empty: { custom: empty(false) }, filtered: { custom: empty(true) } }} />
            <DataTable.Pagination translations={translations} />
          </>
        )}
      </DataTable>
      <CreateLinkDrawer
        open={creating}
        onOpenChange={setCreating}
        onCreated={(link) => {
          setCreating(false)
          toast.success(t("paymentLinks.created", { product: link.name_of_product }))
          setQuery("")
          setPage(0)
          load()
          setSelected(link)
        }}
      />
      <LinkDrawer link={selected} onClose={() => setSelected(null)} onChanged={changed} />
    </Container>
  )
}

export const config = defineRouteConfig({ label: "sipay.paymentLinks.menu", translationNs: "translation", icon: LinkIcon })

export default PaymentLinksPage
