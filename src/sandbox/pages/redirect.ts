import { escapeHtml, html, seeOther, type Reply } from "../http/io"
import { page } from "./layout"

/** Sends the browser to the merchant with the result: a 303 with a query string (GET) or an auto-submitted form (POST). */
export function redirectBrowser(target: string, fields: Record<string, string>, method: "GET" | "POST"): Reply {
  if (method === "GET") {
    const query = new URLSearchParams(fields).toString()
    return seeOther(`${target}${target.includes("?") ? "&" : "?"}${query}`)
  }
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n")
  return html(page("en", "Redirecting…", `
<form id="result" method="post" action="${escapeHtml(target)}">
${inputs}
<noscript><button type="submit">Continue / Devam</button></noscript>
</form>
<script>document.getElementById("result").submit()</script>`))
}

/** When a 3D request cannot be sent back to a cancel_url: a page naming the problem. */
export function errorPage(code: number, description: string, status = 400): Reply {
  return html(page("en", "Payment request refused", `
<h1>Payment request refused / Ödeme isteği reddedildi</h1>
<p class="error">status_code <strong id="status-code">${code}</strong>: <span id="status-description">${escapeHtml(description)}</span></p>`), status)
}
