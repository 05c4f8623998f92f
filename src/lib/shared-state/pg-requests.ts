import { randomUUID } from "node:crypto"

/**
 * A request handed from one process to another through PostgreSQL's LISTEN/NOTIFY (the one store every
 * instance of a cluster shares): the asker listens on a channel, hands the request over by any means
 * (the event bus), and waits for the answerer's "started" and then "done" notices carrying the request's
 * id. No table, nothing kept: a notice reaches the processes listening at that moment only.
 */

/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more. */
export const NOTICE_LIMIT = 7900

type Notice = { request_id: string; phase: "started" | "done" | "failed"; answer?: unknown; error?: string }

/** A pg client as knex hands it out (acquireConnection): queries and 'notification' events. */
type ListeningClient = {
  query(sql: string): Promise<unknown>
  on(event: "notification", listener: (message: { channel: string; payload?: string }) => void): unknown
  removeListener(event: "notification", listener: (message: { channel: string; payload?: string }) => void): unknown
}

/** The part of a Knex instance used here. */
export type NoticeDatabase = {
  raw(sql: string, bindings?: readonly unknown[]): Promise<unknown>
  client: { acquireConnection(): Promise<unknown>; releaseConnection(connection: unknown): Promise<unknown> }
}

export class NoAnswererError extends Error {
  constructor(readonly channel: string, waitedMs: number) {
    super(`Nothing took the request on "${channel}" within ${waitedMs} ms`)
    this.name = "NoAnswererError"
  }
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/

/**
 * Asks on `channel`: listens first, then calls `handOver(requestId)`, then waits for a "started" notice
 * (at most `startMs`: otherwise NoAnswererError, and nothing was answered) and for "done" (at most
 * `doneMs` after it). Answers what the answerer sent; its failure is thrown as an Error with its message.
 */
export async function askThroughNotices<T>(
  db: NoticeDatabase,
  channel: string,
  handOver: (requestId: string) => Promise<void>,
  options: { startMs: number; doneMs: number }
): Promise<T> {
  if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`)
  const requestId = randomUUID()
  const client = (await db.client.acquireConnection()) as ListeningClient
  let listener: ((message: { channel: string; payload?: string }) => void) | null = null
  try {
    const notices: Notice[] = []
    let wake: (() => void) | null = null
    listener = (message) => {
      if (message.channel !== channel || !message.payload) return
      let notice: Notice
      try {
        notice = JSON.parse(message.payload)
      } catch {
        return
      }
      if (notice.request_id !== requestId) return
      notices.push(notice)
      wake?.()
    }
    client.on("notification", listener)
    await client.query(`LISTEN ${channel}`)
    await handOver(requestId)
    const next = async (phases: Notice["phase"][], withinMs: number): Promise<Notice | null> => {
      const until = Date.now() + withinMs
      for (;;) {
        const found = notices.find((notice) => phases.includes(notice.phase))
        if (found) return found
        const left = until - Date.now()
        if (left <= 0) return null
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left)
          wake = () => {
            clearTimeout(timer)
            resolve()
          }
        })
        wake = null
      }
    }
    const started = await next(["started", "done", "failed"], options.startMs)
    if (!started) throw new NoAnswererError(channel, options.startMs)
    const done = started.phase === "started" ? await next(["done", "failed"], options.doneMs) : started
    if (!done) throw new Error(`The request on "${channel}" was taken but not answered within ${options.doneMs} ms`)
    if (done.phase === "failed") throw new Error(done.error ?? "the answerer failed")
    return done.answer as T
  } finally {
    if (listener) client.removeListener("notification", listener)
    await client.query(`UNLISTEN ${channel}`).catch(() => undefined)
    await db.client.releaseConnection(client)
  }
}

/**
 * Answers a request asked on `channel`: "started", then `work()`'s answer as "done" (if it does not fit
 * a notice, `compact(answer)` instead; if that does not fit either, "failed"), or work()'s failure as
 * "failed". Returns what work() returned, or throws what it threw.
 */
export async function answerThroughNotices<T>(db: NoticeDatabase, channel: string, requestId: string, work: () => Promise<T>, compact: (answer: T) => unknown = (answer) => answer): Promise<T> {
  const notify = (notice: Notice) => db.raw("SELECT pg_notify(?, ?)", [channel, JSON.stringify(notice)])
  const fits = (notice: Notice) => Buffer.byteLength(JSON.stringify(notice)) < NOTICE_LIMIT
  await notify({ request_id: requestId, phase: "started" })
  let answer: T
  try {
    answer = await work()
  } catch (error) {
    await notify({ request_id: requestId, phase: "failed", error: String((error as Error)?.message ?? error).slice(0, 2000) })
    throw error
  }
  const whole: Notice = { request_id: requestId, phase: "done", answer }
  const compacted: Notice = { request_id: requestId, phase: "done", answer: fits(whole) ? answer : compact(answer) }
  await notify(fits(whole) ? whole : fits(compacted) ? compacted : { request_id: requestId, phase: "failed", error: "the answer was done but is too large to hand back" })
  return answer
}
