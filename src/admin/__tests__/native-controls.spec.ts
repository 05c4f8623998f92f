import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import ts from "typescript"

// The admin uses @medusajs/ui's controls and DataTable, as Medusa's own pages do: no native select,
// date input, table or form control, and no list hand-rolled from @medusajs/ui's bare Table. The one
// exception is the dashboard's own file drop zone (its FileUpload; @medusajs/ui has no file
// primitive): a button over a hidden file input.

const ADMIN = join(__dirname, "..")

/** Native elements @medusajs/ui replaces (Select, DatePicker/Input, DataTable, Textarea, Button, Input/Checkbox/Switch). */
const NATIVE: Record<string, string> = {
  select: "Select", option: "Select.Item", textarea: "Textarea", button: "Button or IconButton", input: "Input, Checkbox, Switch or DatePicker",
  table: "DataTable", thead: "DataTable", tbody: "DataTable", tr: "DataTable", td: "DataTable", th: "DataTable",
}
/** Input types that need a picker of @medusajs/ui rather than the browser's. */
const PICKER_TYPES = new Set(["date", "datetime-local", "month", "week", "time", "file"])

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "__tests__" ? [] : sourceFiles(path)
    return entry.name.endsWith(".tsx") ? [path] : []
  })
}

type Tag = { name: string; attributes: Map<string, string | true>; node: ts.Node }

function tagsOf(source: ts.SourceFile): Tag[] {
  const tags: Tag[] = []
  const visit = (node: ts.Node) => {
    if (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) {
      const attributes = new Map<string, string | true>()
      for (const attribute of node.attributes.properties) {
        if (!ts.isJsxAttribute(attribute)) continue
        const value = attribute.initializer
        attributes.set(attribute.name.getText(), value && ts.isStringLiteral(value) ? value.text : true)
      }
      tags.push({ name: node.tagName.getText(), attributes, node })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return tags
}

/** A hidden file input: the dashboard's drop zone, whose one button opens it. */
const isHiddenFileInput = (tag: Tag) => tag.name === "input" && tag.attributes.get("type") === "file" && tag.attributes.has("hidden")

export function findNativeControls(file: string, code: string): string[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
  const tags = tagsOf(source)
  const dropZones = tags.filter(isHiddenFileInput).length
  let dropZoneButtons = 0
  const findings: string[] = []
  const report = (tag: Tag, why: string) => findings.push(`${file}:${source.getLineAndCharacterOfPosition(tag.node.getStart()).line + 1} ${why}`)
  for (const tag of tags) {
    if (isHiddenFileInput(tag)) continue
    if (tag.name === "button" && dropZoneButtons < dropZones) {
      dropZoneButtons++
      continue
    }
    if (NATIVE[tag.name]) report(tag, `native <${tag.name}>: use ${NATIVE[tag.name]} from @medusajs/ui`)
    const type = tag.attributes.get("type")
    if (tag.name === "Input" && typeof type === "string" && PICKER_TYPES.has(type)) report(tag, `Input type="${type}": use ${type === "file" ? "a drop zone" : "DatePicker"}`)
    if (tag.name === "Table" || tag.name.startsWith("Table.")) report(tag, `hand-rolled <${tag.name}>: use DataTable with useDataTable`)
  }
  return findings
}

describe("admin controls (static)", () => {
  it("has no native select, date input, table or form control and no bare Table in src/admin", () => {
    const files = sourceFiles(ADMIN)
    expect(files.length).toBeGreaterThan(10)
    expect(files.flatMap((file) => findNativeControls(relative(ADMIN, file), readFileSync(file, "utf8")))).toEqual([])
  })

  it("flags each kind of native control (what the admin held before DataTable)", () => {
    const code = `
      const A = () => <select id="link-currency" name="currency_code"><option value="TRY">TRY</option></select>
      const B = () => <Input id="link-expire-date" name="expire_date" type="date" />
      const C = () => <input id="link-photo" name="product_photo" type="file" />
      const D = () => <Table><Table.Body><Table.Row><Table.Cell>x</Table.Cell></Table.Row></Table.Body></Table>
      const E = () => <button type="button" onClick={open}>{sale.invoice_id}</button>
      const F = () => <table><tbody><tr><td>x</td></tr></tbody></table>
      const G = () => <Table.Pagination count={1} />`
    const findings = findNativeControls("probe.tsx", code).map((finding) => finding.replace(/^probe\.tsx:\d+ /, ""))
    expect(findings).toEqual([
      "native <select>: use Select from @medusajs/ui",
      "native <option>: use Select.Item from @medusajs/ui",
      'Input type="date": use DatePicker',
      "native <input>: use Input, Checkbox, Switch or DatePicker from @medusajs/ui",
      "hand-rolled <Table>: use DataTable with useDataTable",
      "hand-rolled <Table.Body>: use DataTable with useDataTable",
      "hand-rolled <Table.Row>: use DataTable with useDataTable",
      "hand-rolled <Table.Cell>: use DataTable with useDataTable",
      "native <button>: use Button or IconButton from @medusajs/ui",
      "native <table>: use DataTable from @medusajs/ui",
      "native <tbody>: use DataTable from @medusajs/ui",
      "native <tr>: use DataTable from @medusajs/ui",
      "native <td>: use DataTable from @medusajs/ui",
      "hand-rolled <Table.Pagination>: use DataTable with useDataTable",
    ])
  })

  it("lets a drop zone's one button over its hidden file input pass, and no second button", () => {
    const zone = `const Z = () => <div><button type="button" onClick={pick}>x</button><input hidden type="file" /></div>`
    expect(findNativeControls("zone.tsx", zone)).toEqual([])
    expect(findNativeControls("zone.tsx", zone.replace("</div>", "<button>y</button></div>"))).toEqual(["zone.tsx:1 native <button>: use Button or IconButton from @medusajs/ui"])
    expect(findNativeControls("zone.tsx", zone.replace("hidden ", ""))).toHaveLength(2)
  })
})
