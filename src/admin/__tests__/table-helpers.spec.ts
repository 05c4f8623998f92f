import { createTable, getCoreRowModel } from "@tanstack/table-core"
import { dateOfDay, dayOfDate } from "../lib/calendar-day"
import { offsetFromPagination, openOnRowClick, orderFromSorting, paginationFromOffset, rowData, sortingFromOrder } from "../lib/table"

// The glue between the admin API (order, offset, "YYYY-MM-DD" days) and @medusajs/ui's DataTable and
// DatePicker (sorting and pagination states, Dates, tanstack rows).

describe("DataTable state from the API's query and back", () => {
  it("reads and writes the API's order as DataTable's sorting", () => {
    expect(sortingFromOrder("-gross")).toEqual({ id: "gross", desc: true })
    expect(sortingFromOrder("invoice_id")).toEqual({ id: "invoice_id", desc: false })
    for (const order of ["-created_at", "created_at", "-state", "invoice_id"]) expect(orderFromSorting(sortingFromOrder(order), "-created_at")).toBe(order)
    // A header clicked back to unsorted gives no sorting: the default order.
    expect(orderFromSorting(undefined, "-created_at")).toBe("-created_at")
    expect(orderFromSorting({ id: "", desc: false }, "-created_at")).toBe("-created_at")
  })

  it("reads and writes offsets as pages", () => {
    expect(paginationFromOffset(100, 50)).toEqual({ pageIndex: 2, pageSize: 50 })
    expect(offsetFromPagination({ pageIndex: 3, pageSize: 20 })).toBe(60)
  })
})

describe("a row click opens the row's data", () => {
  type Link = { id: string; name: string }
  const links: Link[] = [{ id: "spl_1", name: "Mug" }, { id: "spl_2", name: "Plate" }]
  // A real tanstack table, as DataTable builds one: its rows are what onRowClick receives at run time.
  const table = createTable<Link>({
    data: links,
    columns: [{ accessorKey: "name" }],
    getCoreRowModel: getCoreRowModel(),
    getRowId: (link) => link.id,
    state: {},
    onStateChange: () => undefined,
    renderFallbackValue: null,
  })

  it("unwraps tanstack's Row, and passes plain data through", () => {
    const row = table.getRowModel().rows[1]
    expect(rowData<Link>(row as unknown as Link)).toBe(links[1])
    expect(rowData(links[0])).toBe(links[0])
    // Data that merely has a field named "original" is data.
    const odd = { original: "x", id: "y" }
    expect(rowData(odd)).toBe(odd)
  })

  it("hands the opener the clicked link", () => {
    const opened: Link[] = []
    openOnRowClick<Link>((link) => opened.push(link))({}, table.getRowModel().rows[0] as unknown as Link)
    expect(opened).toEqual([links[0]])
  })
})

describe("a calendar day as DatePicker's Date and back", () => {
  it("keeps the day whatever the timezone (local midnight both ways)", () => {
    const date = dateOfDay("2026-11-23")!
    expect([date.getFullYear(), date.getMonth(), date.getDate(), date.getHours()]).toEqual([2026, 10, 23, 0])
    expect(dayOfDate(date)).toBe("2026-11-23")
    expect(dayOfDate(new Date(2027, 0, 5, 23, 59))).toBe("2027-01-05")
  })

  it("round-trips the short years a typed year passes through (2, 20, 202 on the way to 2027)", () => {
    for (const day of ["0002-01-07", "0020-01-07", "0202-01-07", "2027-01-07"]) {
      expect(dateOfDay(day)!.getFullYear()).toBe(Number(day.slice(0, 4)))
      expect(dayOfDate(dateOfDay(day))).toBe(day)
    }
  })

  it("has no day for a malformed or cleared value", () => {
    expect(dateOfDay("")).toBeNull()
    expect(dateOfDay("23.11.2026")).toBeNull()
    expect(dayOfDate(null)).toBe("")
    expect(dayOfDate(new Date("nonsense"))).toBe("")
  })
})
