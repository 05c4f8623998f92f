const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
}

/** Text or attribute value (always quoted) in HTML. */
export function escapeHtml(value: string): string {
  return String(value).replace(/[&<>"'`]/g, (char) => HTML_ESCAPES[char])
}

/** JSON that is safe inside a `<script>` element: no `</script>`, `<!--` or line separators survive. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029")
}

/** An http(s) URL or a same-site path for a link; anything else (javascript:, data:, ...) is refused. */
export function safeLinkUrl(value: string | null | undefined): string | null {
  if (!value) {
    return null
  }
  try {
    const url = new URL(value, "http://relative.invalid/")
    return url.protocol === "http:" || url.protocol === "https:" ? value : null
  } catch {
    return null
  }
}
