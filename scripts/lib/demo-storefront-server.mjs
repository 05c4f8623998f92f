// The demo storefront's static server: files from demo/storefront, every page path answered with
// index.html (the page script routes), the store's address and keys injected at serve time.
import { readFile } from "node:fs/promises"
import { createServer } from "node:http"
import { extname, join, normalize, sep } from "node:path"

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
}

/** JSON safe inside a <script> element. */
function scriptJson(value) {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026")
}

/** `files`: assets made at start, served from memory by path (the storefront kit's bundle, /kit.js). */
export async function startStorefrontServer({ root, port, config, files = {} }) {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://storefront")
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { allow: "GET, HEAD" }).end()
        return
      }
      if (Object.hasOwn(files, url.pathname)) {
        res.writeHead(200, { "content-type": TYPES[extname(url.pathname)] ?? "application/octet-stream", "cache-control": "no-cache" })
        res.end(req.method === "HEAD" ? undefined : files[url.pathname])
        return
      }
      const file = normalize(join(root, decodeURIComponent(url.pathname)))
      const isAsset = extname(url.pathname) !== "" && file.startsWith(root + sep)
      if (isAsset) {
        const body = await readFile(file).catch(() => null)
        if (!body) {
          res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found")
          return
        }
        res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-cache" })
        res.end(req.method === "HEAD" ? undefined : body)
        return
      }
      const page = (await readFile(join(root, "index.html"), "utf8")).replace(
        "<!-- DEMO_CONFIG -->",
        `<script>window.SIPAY_DEMO = ${scriptJson(config)}</script>`
      )
      res.writeHead(200, { "content-type": TYPES[".html"], "cache-control": "no-store" })
      res.end(req.method === "HEAD" ? undefined : page)
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end(String(error.message))
    }
  })
  await new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, () => resolve())
  })
  return {
    port: server.address().port,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections() // a browser's keep-alive connections would hold the close
      }),
  }
}
