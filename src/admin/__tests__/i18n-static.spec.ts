import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import ts from "typescript"
import { en } from "../i18n/en"
import { tr } from "../i18n/tr"
import resources from "../i18n/index"

// Translation completeness, statically: no JSX text and no user-facing string literal in src/admin
// outside t(); every literal key given to t() exists in English and Turkish; both languages hold the
// same keys, none empty. (The browser suite admin-i18n.spec.ts proves the rendered pages.)

const ADMIN = join(__dirname, "..")

/** Attributes whose value is never shown to the user. */
const TECHNICAL_ATTRIBUTES = new Set([
  "className", "id", "key", "data-testid", "href", "to", "type", "name", "variant", "size", "color", "htmlFor",
  "value", "defaultValue", "accept", "inputMode", "weight", "level", "leading", "download", "zone", "role",
  "autoComplete", "rel", "target", "src", "aria-describedby", "aria-busy", "form", "method", "data-column",
  "data-invoice-id", "side", "align", "min", "max", "step", "pattern", "lang", "dir", "testId", "aria-required", "aria-invalid", "aria-hidden",
])
/** Object properties that carry user-facing text when they hold a literal. */
const TEXT_PROPERTIES = new Set(["label", "hint", "message", "title", "description", "confirmText", "cancelText", "placeholder", "text"])
/** Calls whose string arguments are shown to the user. */
const TEXT_CALLS = new Set(["toast.success", "toast.error", "toast.info", "toast.warning", "setError", "setSendError", "setRefreshError", "setPhotoProblem"])

/** Words a reader reads: not JSON's null, not example e-mail addresses. */
const words = (text: string) => /\p{L}{2,}/u.test(text) && text.trim() !== "null" && !/^(\S+@\S+\s*)+$/.test(text)

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "__tests__" || entry.name === "i18n" ? [] : sourceFiles(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(" ")
  return null
}

/** Literals that a JSX attribute or child shows: through ?:, ||, ??, && and parentheses. */
function shownLiterals(node: ts.Node): ts.Node[] {
  if (literalText(node) !== null) return [node]
  if (ts.isParenthesizedExpression(node)) return shownLiterals(node.expression)
  if (ts.isConditionalExpression(node)) return [...shownLiterals(node.whenTrue), ...shownLiterals(node.whenFalse)]
  if (ts.isBinaryExpression(node) && [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.PlusToken].includes(node.operatorToken.kind)) {
    return [...shownLiterals(node.left), ...shownLiterals(node.right)]
  }
  return []
}

function keyExists(tree: unknown, key: string): boolean {
  let node: any = tree
  const parts = key.split(".")
  for (let i = 0; i < parts.length; i++) {
    if (node === null || typeof node !== "object") return false
    const last = i === parts.length - 1
    if (last && node[parts[i]] === undefined) return node[`${parts[i]}_one`] !== undefined && node[`${parts[i]}_other`] !== undefined
    node = node[parts[i]]
  }
  return typeof node === "string"
}

type Finding = { file: string; line: number; text: string; why: string }

export function findUntranslated(file: string, code: string): Finding[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const findings: Finding[] = []
  const report = (node: ts.Node, why: string) =>
    findings.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.getText().slice(0, 80), why })

  const visit = (node: ts.Node) => {
    // A currency code alone (an option's text) is data, not words.
    if (ts.isJsxText(node) && words(node.text) && !/^\s*[A-Z]{3}\s*$/.test(node.text)) report(node, "JSX text outside t()")
    if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) {
      for (const literal of shownLiterals(node.expression)) if (words(literalText(literal)!)) report(literal, "string shown in JSX outside t()")
    }
    if (ts.isJsxAttribute(node) && node.initializer) {
      const name = node.name.getText()
      if (!TECHNICAL_ATTRIBUTES.has(name)) {
        const value = ts.isJsxExpression(node.initializer) ? node.initializer.expression : node.initializer
        for (const literal of value ? shownLiterals(value) : []) if (words(literalText(literal)!)) report(literal, `attribute ${name} outside t()`)
      }
    }
    if (ts.isPropertyAssignment(node) && TEXT_PROPERTIES.has(node.name.getText())) {
      for (const literal of shownLiterals(node.initializer)) {
        const text = literalText(literal)!
        // A route's label is a translation key read with translationNs.
        if (words(text) && !/^sipay\.[\w.]+$/.test(text)) report(literal, `property ${node.name.getText()} outside t()`)
      }
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText()
      if (TEXT_CALLS.has(callee)) {
        for (const argument of node.arguments) for (const literal of shownLiterals(argument)) if (words(literalText(literal)!)) report(literal, `${callee} outside t()`)
      }
      if (callee === "t" && node.arguments[0]) {
        const key = node.arguments[0]
        if (ts.isStringLiteral(key) || ts.isNoSubstitutionTemplateLiteral(key)) {
          if (!keyExists(en, key.text)) report(key, `key sipay.${key.text} missing in en`)
          if (!keyExists(tr, key.text)) report(key, `key sipay.${key.text} missing in tr`)
        } else if (ts.isTemplateExpression(key)) {
          // t(`section.${x}.label`): the fixed head must name an existing section.
          const head = key.head.text.replace(/\.$/, "")
          if (head && !keyExists({ x: head.split(".").reduce((tree: any, part) => tree?.[part], en) ? "" : undefined }, "x")) report(key, `no section sipay.${head} in en`)
        }
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return findings
}

function leaves(tree: Record<string, unknown>, prefix = ""): Map<string, string> {
  const out = new Map<string, string>()
  for (const [name, value] of Object.entries(tree)) {
    if (value !== null && typeof value === "object") for (const [k, v] of leaves(value as Record<string, unknown>, `${prefix}${name}.`)) out.set(k, v)
    else out.set(`${prefix}${name}`, String(value))
  }
  return out
}

describe("admin translations (static)", () => {
  it("has no JSX text or user-facing string literal outside t() in src/admin", () => {
    const files = sourceFiles(ADMIN)
    expect(files.length).toBeGreaterThan(10)
    const findings = files.flatMap((file) => findUntranslated(relative(ADMIN, file), readFileSync(file, "utf8")))
    expect(findings.map((f) => `${f.file}:${f.line} ${f.why}: ${f.text}`)).toEqual([])
  })

  it("catches each kind of untranslated text (the check can fail)", () => {
    const code = `
      const X = () => <div title="Hello there" aria-label={t("sales.title")}>Plain words{cond ? "Yes please" : t("sales.title")}</div>
      const F = [{ key: "a", label: "A label" }]
      toast.success("Saved it")
      t("sales.noSuchKey")
      const R = defineRouteConfig({ label: "sipay.sales.menu" })
      const ok = <div className="flex gap-2" data-testid="x">{t("sales.title")} · {value}</div>`
    const whys = findUntranslated("probe.tsx", code).map((f) => f.why)
    expect(whys).toEqual([
      "attribute title outside t()",
      "JSX text outside t()",
      "string shown in JSX outside t()",
      "property label outside t()",
      "toast.success outside t()",
      "key sipay.sales.noSuchKey missing in en",
      "key sipay.sales.noSuchKey missing in tr",
    ])
  })

  it("holds the same keys in English and Turkish, none empty, all under sipay.", () => {
    const english = leaves(en)
    const turkish = leaves(tr)
    expect([...turkish.keys()].sort()).toEqual([...english.keys()].sort())
    for (const [key, text] of [...english, ...turkish]) expect(`${key}=${text.trim() ? "ok" : "empty"}`).toBe(`${key}=ok`)
    // Placeholders agree: a Turkish text uses the same {{names}} as the English one.
    const names = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort()
    for (const [key, text] of english) expect(`${key}: ${names(turkish.get(key)!)}`).toBe(`${key}: ${names(text)}`)
    expect(Object.keys(resources).sort()).toEqual(["en", "tr"])
    for (const language of ["en", "tr"] as const) expect(Object.keys(resources[language].translation)).toEqual(["sipay"])
  })
})
