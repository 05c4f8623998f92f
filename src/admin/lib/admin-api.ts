/** The admin API from the admin's own origin (its session cookie). A failed call throws the API's message. */
export class AdminApiError extends Error {
  constructor(message: string, readonly status: number) {
    super(message)
  }
}

export async function adminRequest<T>(path: string, init: { method?: "GET" | "POST" | "DELETE"; json?: unknown; form?: FormData } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" }
  let body: BodyInit | undefined
  if (init.form) {
    body = init.form
  } else if (init.json !== undefined) {
    headers["content-type"] = "application/json"
    body = JSON.stringify(init.json)
  }
  const response = await fetch(path, { method: init.method ?? (body ? "POST" : "GET"), credentials: "include", headers, body })
  const answer = await response.json().catch(() => null)
  if (!response.ok) {
    throw new AdminApiError(answer?.message ?? `The server answered ${response.status}`, response.status)
  }
  return answer as T
}
