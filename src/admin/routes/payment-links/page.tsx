import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Link as LinkIcon } from "@medusajs/icons"
import { Alert, Button, Container, Heading, Input, Table, Text, toast } from "@medusajs/ui"
import { useCallback, useEffect, useState } from "react"
import { adminRequest } from "../../lib/admin-api"
import { formatAmount, useSipayT } from "../../lib/i18n"
import type { PaymentLink, PaymentLinkList } from "../../lib/types"
import { CreateLinkDrawer } from "./create-link-drawer"
import { copyLink, LinkDrawer } from "./link-drawer"
import { LinkStatus, usesText } from "./link-status"

const PAGE_SIZE = 20

/** Payment links (DPL): created, e-mailed and followed from the admin instead of the gateway's panel. */
const PaymentLinksPage = () => {
  const { t, locale } = useSipayT()
  const [list, setList] = useState<PaymentLinkList | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [loading, setLoading] = useState(true)
  const [search, setSearch] = useState("")
  const [query, setQuery] = useState("")
  const [page, setPage] = useState(0)
  const [creating, setCreating] = useState(false)
  const [selected, setSelected] = useState<PaymentLink | null>(null)

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

  useEffect(() => {
    const timer = setTimeout(() => {
      setPage(0)
      setQuery(search.trim())
    }, 300)
    return () => clearTimeout(timer)
  }, [search])

  const changed = (link: PaymentLink) => {
    setSelected(link)
    setList((current) => current && { ...current, payment_links: current.payment_links.map((entry) => (entry.id === link.id ? link : entry)) })
  }

  const links = list?.payment_links ?? []
  const pageCount = Math.max(1, Math.ceil((list?.count ?? 0) / PAGE_SIZE))

  return (
    <Container className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h1">{t("paymentLinks.title")}</Heading>
          <Text size="small" className="text-ui-fg-subtle">{t("paymentLinks.subtitle")}</Text>
        </div>
        <Button size="small" variant="secondary" onClick={() => setCreating(true)}>{t("paymentLinks.create")}</Button>
      </div>
      <div className="flex items-center justify-between px-6 py-4">
        <Input type="search" size="small" placeholder={t("paymentLinks.searchPlaceholder")} value={search} onChange={(event) => setSearch(event.target.value)} aria-label={t("paymentLinks.searchLabel")} className="max-w-xs" />
      </div>
      {error ? (
        <div className="px-6 py-4">
          <Alert variant="error" dismissible={false} data-testid="links-error">
            <div className="flex items-center justify-between gap-x-4">
              <span>{t("paymentLinks.loadError", { error })}</span>
              <Button size="small" variant="secondary" onClick={load}>{t("common.tryAgain")}</Button>
            </div>
          </Alert>
        </div>
      ) : loading && !list ? (
        <div className="px-6 py-8" aria-busy="true">
          <Text size="small" className="text-ui-fg-subtle">{t("paymentLinks.loading")}</Text>
        </div>
      ) : links.length === 0 ? (
        <div className="flex flex-col items-center gap-y-2 px-6 py-12 text-center" data-testid="links-empty">
          <Text weight="plus">{query ? t("paymentLinks.noMatch") : t("paymentLinks.none")}</Text>
          <Text size="small" className="text-ui-fg-subtle">{query ? t("paymentLinks.tryAnother") : t("paymentLinks.createHint")}</Text>
          {!query ? <Button size="small" variant="secondary" onClick={() => setCreating(true)}>{t("paymentLinks.create")}</Button> : null}
        </div>
      ) : (
        <div>
          <Table>
            <Table.Header>
              <Table.Row>
                <Table.HeaderCell>{t("paymentLinks.product")}</Table.HeaderCell>
                <Table.HeaderCell>{t("paymentLinks.amount")}</Table.HeaderCell>
                <Table.HeaderCell>{t("paymentLinks.uses")}</Table.HeaderCell>
                <Table.HeaderCell>{t("paymentLinks.expires")}</Table.HeaderCell>
                <Table.HeaderCell>{t("paymentLinks.status")}</Table.HeaderCell>
                <Table.HeaderCell>{t("paymentLinks.emailed")}</Table.HeaderCell>
                <Table.HeaderCell className="text-right">{t("paymentLinks.link")}</Table.HeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {links.map((link) => (
                <Table.Row key={link.id} className="cursor-pointer" onClick={() => setSelected(link)} data-testid="link-row">
                  <Table.Cell>{link.name_of_product}</Table.Cell>
                  <Table.Cell>{formatAmount(link.amount, link.currency_code, locale)}</Table.Cell>
                  <Table.Cell data-testid="row-uses">{usesText(link)}</Table.Cell>
                  <Table.Cell>{t("paymentLinks.expiresValue", { date: link.expire_date })}</Table.Cell>
                  <Table.Cell><LinkStatus status={link.status} /></Table.Cell>
                  <Table.Cell data-testid="row-emailed">{link.emailed.count ? t("paymentLinks.addresses", { count: link.emailed.recipients.length }) : t("paymentLinks.no")}</Table.Cell>
                  <Table.Cell className="text-right">
                    <Button size="small" variant="transparent" onClick={(event) => { event.stopPropagation(); copyLink(link.link, t) }}>{t("paymentLinks.copy")}</Button>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table>
          <Table.Pagination
            count={list?.count ?? 0}
            pageSize={PAGE_SIZE}
            pageIndex={page}
            pageCount={pageCount}
            canPreviousPage={page > 0}
            canNextPage={page + 1 < pageCount}
            previousPage={() => setPage((current) => Math.max(0, current - 1))}
            nextPage={() => setPage((current) => current + 1)}
            translations={{ of: t("pagination.of"), results: t("pagination.results"), pages: t("pagination.pages"), prev: t("pagination.prev"), next: t("pagination.next") }}
          />
        </div>
      )}
      <CreateLinkDrawer
        open={creating}
        onOpenChange={setCreating}
        onCreated={(link) => {
          setCreating(false)
          toast.success(t("paymentLinks.created", { product: link.name_of_product }))
          setSearch("")
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
