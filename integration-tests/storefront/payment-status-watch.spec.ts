import type { PaymentStatus } from "../../packages/storefront/src"
import { watchPaymentStatus, type PaymentWatchState } from "../../packages/storefront/src/react/status-watch"

// The kit's status component asks the store on a schedule (no app here: the schedule alone, on jest's clock).

const confirming: PaymentStatus = { status: "confirming", order_id: null, code: "payment_confirming", message: "…" }
const paid: PaymentStatus = { status: "paid", order_id: "order_01PAID", code: null, message: null }
const failed: PaymentStatus = { status: "failed", order_id: null, code: "card_declined", message: "…" }

function watch(answers: (PaymentStatus | Error)[], options: { hidden?: boolean; intervalMs?: number; stopAfterMs?: number; answerAfterMs?: number } = {}) {
  let hidden = options.hidden ?? false
  const asked: number[] = []
  const states: PaymentWatchState[] = []
  const paidWith: string[] = []
  const startedAt = Date.now()
  const watcher = watchPaymentStatus({
    check: async () => {
      asked.push(Date.now() - startedAt)
      if (options.answerAfterMs) await new Promise((resolve) => setTimeout(resolve, options.answerAfterMs))
      const answer = answers.length > 1 ? answers.shift()! : answers[0]
      if (answer instanceof Error) throw answer
      return answer
    },
    intervalMs: options.intervalMs ?? 5000,
    stopAfterMs: options.stopAfterMs ?? 180_000,
    hidden: () => hidden,
    onChange: (state) => states.push(state),
    onPaid: ({ order_id }) => paidWith.push(order_id),
  })
  const setHidden = (value: boolean) => {
    hidden = value
    watcher.visibilityChanged()
  }
  return { watcher, asked, states, paidWith, setHidden }
}

describe("the kit's payment status asking (SipayPaymentStatus)", () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  it("asks at once, every 5 s while confirming, and stops at paid with the order, once", async () => {
    const run = watch([confirming, confirming, paid])
    await jest.advanceTimersByTimeAsync(0)
    expect(run.asked).toEqual([0])
    await jest.advanceTimersByTimeAsync(60_000)
    expect(run.asked).toEqual([0, 5000, 10000])
    expect(run.states).toEqual(["confirming", "confirming", "paid"])
    expect(run.paidWith).toEqual(["order_01PAID"])
  })

  it("a failed or absent payment ends the asking at once", async () => {
    const declined = watch([confirming, failed])
    const nothing = watch([{ status: "none", order_id: null, code: null, message: null }])
    await jest.advanceTimersByTimeAsync(60_000)
    expect(declined.asked).toEqual([0, 5000])
    expect(declined.states).toEqual(["confirming", "failed"])
    expect(nothing.asked).toEqual([0])
    expect(nothing.states).toEqual(["none"])
  })

  it("asks nothing while the tab is hidden, and at once when it shows again", async () => {
    const run = watch([confirming], { hidden: true })
    await jest.advanceTimersByTimeAsync(30_000)
    expect(run.asked).toEqual([])
    run.setHidden(false)
    await jest.advanceTimersByTimeAsync(0)
    expect(run.asked).toEqual([30_000])
    await jest.advanceTimersByTimeAsync(5000)
    expect(run.asked).toEqual([30_000, 35_000])
    // Hidden again: the next ask waits for the tab, however long.
    run.setHidden(true)
    await jest.advanceTimersByTimeAsync(60_000)
    expect(run.asked).toEqual([30_000, 35_000])
    run.setHidden(false)
    await jest.advanceTimersByTimeAsync(0)
    expect(run.asked).toEqual([30_000, 35_000, 95_000])
  })

  it("an answer that comes while the tab is hidden schedules nothing until the tab shows", async () => {
    const run = watch([confirming], { answerAfterMs: 1000 })
    await jest.advanceTimersByTimeAsync(500)
    run.setHidden(true)
    await jest.advanceTimersByTimeAsync(60_000)
    expect(run.asked).toEqual([0])
    expect(run.states).toEqual(["confirming"])
    run.setHidden(false)
    await jest.advanceTimersByTimeAsync(0)
    expect(run.asked).toEqual([0, 60_500])
  })

  it("stops after a few minutes with 'later' (we will e-mail you); a return to the tab asks once more", async () => {
    const run = watch([confirming], { stopAfterMs: 180_000 })
    await jest.advanceTimersByTimeAsync(600_000)
    expect(run.asked.length).toBe(37) // 0, 5 s, …, 180 s
    expect(run.asked.at(-1)).toBe(180_000)
    expect(run.states.at(-1)).toBe("later")
    run.setHidden(true)
    run.setHidden(false)
    await jest.advanceTimersByTimeAsync(60_000)
    expect(run.asked.length).toBe(38)
    expect(run.states.at(-1)).toBe("later")
  })

  it("a store that cannot be asked is retried quietly, and told as nothing to wait for when the time is up", async () => {
    const run = watch([new Error("fetch failed"), confirming, new Error("fetch failed")], { stopAfterMs: 20_000 })
    await jest.advanceTimersByTimeAsync(0)
    expect(run.states).toEqual([])
    await jest.advanceTimersByTimeAsync(60_000)
    expect(run.asked).toEqual([0, 5000, 10000, 15000, 20000])
    expect(run.states.at(-1)).toBe("later")
    const never = watch([new Error("fetch failed")], { stopAfterMs: 10_000 })
    await jest.advanceTimersByTimeAsync(60_000)
    expect(never.asked).toEqual([0, 5000, 10000])
    expect(never.states).toEqual(["none"])
  })

  it("stopped (the page left), it asks no more and reports nothing", async () => {
    const run = watch([confirming])
    await jest.advanceTimersByTimeAsync(0)
    run.watcher.stop()
    await jest.advanceTimersByTimeAsync(60_000)
    expect(run.asked).toEqual([0])
  })
})
