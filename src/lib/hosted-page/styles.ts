/** The page's only stylesheet: system fonts, no images, readable at 320px, a visible focus ring. */
export const HOSTED_PAGE_CSS = `
:root{color-scheme:light;--ink:#1f2328;--muted:#57606a;--line:#6e7781;--accent:#0b5cad;--error:#b3261e;--focus:#0b5cad}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:#eef1f4;color:var(--ink);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",Arial,sans-serif}
.page{max-width:30rem;margin:0 auto;padding:.75rem}
.topbar{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.5rem;padding:.25rem 0 .75rem}
.store{margin:0;font-size:1.125rem;font-weight:700;overflow-wrap:anywhere}
.panel{background:#fff;border:1px solid #d0d7de;border-radius:.75rem;padding:1rem}
h1{margin:0;font-size:1.125rem}
.amount{margin:.25rem 0 1rem;color:var(--muted)}
.amount strong{display:block;color:var(--ink);font-size:2rem;line-height:1.2;overflow-wrap:anywhere}
.field{margin:0 0 1rem;min-width:0}
fieldset{border:0;margin:0 0 1rem;padding:0;min-width:0}
label,legend{display:block;margin:0 0 .25rem;padding:0;font-weight:600}
input[type=text],select{display:block;width:100%;min-height:2.75rem;margin:0;padding:.5rem .75rem;font:inherit;color:inherit;background:#fff;border:1px solid var(--line);border-radius:.5rem}
input[aria-invalid=true]{border:2px solid var(--error)}
.row{display:flex;flex-wrap:wrap;gap:.75rem}
.row>.field{flex:1 1 6rem;margin:0}
.hint{margin:.25rem 0 0;color:var(--muted);font-size:.875rem}
.error{margin:.25rem 0 0;color:var(--error);font-size:.9375rem;font-weight:600}
.status{margin:0}
.status:not(:empty){margin:0 0 1rem;padding:.75rem;border:2px solid var(--error);border-radius:.5rem;color:var(--error);font-weight:600;background:#fff5f5}
.choice{display:flex;align-items:flex-start;gap:.5rem;margin:0 0 .5rem;padding:.5rem .75rem;border:1px solid #d0d7de;border-radius:.5rem}
.choice:has(input:checked){border-color:var(--accent);background:#eef5fc}
.choice input{flex:none;width:1.125rem;height:1.125rem;margin:.2rem 0 0}
.choice label{margin:0;font-weight:400}
.choice .detail{display:block;color:var(--muted);font-size:.875rem}
.agricultural{margin:.5rem 0 0}
button{display:block;width:100%;min-height:3rem;margin:0;padding:.5rem 1rem;font:inherit;font-weight:700;color:#fff;background:var(--accent);border:0;border-radius:.5rem;cursor:pointer}
button[disabled]{background:#57606a;cursor:progress}
a{color:var(--accent)}
.secure{margin:1rem 0 0;color:var(--muted);font-size:.875rem}
.cancel{display:inline-block;margin:1rem 0 0}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
input:focus-visible,select:focus-visible{outline-offset:1px}
[hidden]{display:none!important}
`
