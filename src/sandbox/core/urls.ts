/** An absolute http(s) URL the browser can be sent to. */
export function usableUrl(value: unknown): string | null {
  if (typeof value !== "string" || value.trim() === "") return null
  try {
    const url = new URL(value.trim())
    return url.protocol === "http:" || url.protocol === "https:" ? value.trim() : null
  } catch {
    return null
  }
}
