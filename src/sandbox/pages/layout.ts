import { escapeHtml } from "../http/io"

export type Lang = "tr" | "en"

/** ?lang= first, then a lang form field, then Accept-Language; Turkish by default, like the gateway. */
export function pickLang(queryLang: string | null, fieldLang: unknown, acceptLanguage: string | undefined): Lang {
  for (const candidate of [queryLang, typeof fieldLang === "string" ? fieldLang : null]) {
    if (candidate === "tr" || candidate === "en") return candidate
  }
  const first = (acceptLanguage ?? "").split(",")[0].trim().toLowerCase()
  return first.startsWith("en") ? "en" : "tr"
}

/** An amount for a person: 150,75 ₺ in Turkish, ₺150.75 in English. */
export function money(minor: number, currency: string, lang: Lang): string {
  return new Intl.NumberFormat(lang === "tr" ? "tr-TR" : "en-GB", { style: "currency", currency }).format(minor / 100)
}

export function page(lang: Lang, title: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#eef1f5;margin:0;padding:24px;color:#1d2433}
main{max-width:420px;margin:0 auto;background:#fff;border-radius:10px;padding:24px;box-shadow:0 2px 10px #0002}
h1{font-size:1.2rem;margin-top:0} dl{display:grid;grid-template-columns:auto 1fr;gap:6px 12px}
dt{color:#5b6475} dd{margin:0;font-weight:600} input{font-size:1.2rem;padding:8px;width:100%;box-sizing:border-box;letter-spacing:3px}
.note{background:#fff6d6;padding:8px;border-radius:6px;margin:12px 0} .buttons{display:flex;gap:12px;margin-top:16px}
button{flex:1;padding:10px;font-size:1rem;border-radius:6px;border:0;cursor:pointer}
.confirm{background:#1a5fd0;color:#fff} .cancel{background:#e2e5ea} .error{color:#b3261e}
nav{text-align:right;font-size:.85rem} .sandbox{font-size:.75rem;color:#5b6475;text-align:center;margin-top:16px}
</style>
</head>
<body><main>${body}<p class="sandbox">Sipay sandbox gateway</p></main></body>
</html>`
}
