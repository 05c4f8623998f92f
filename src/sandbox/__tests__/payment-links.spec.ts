import type { SandboxHandle } from "../index"
import { daysAfter, getJson, istanbulToday, linkForm, PNG, postJson, postMultipart, start, tokenFor } from "./support"

const ISO_MICRO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

describe("sandbox: payment links (dpl/create, dpl/sendemail)", () => {
  let sandbox: SandboxHandle
  let token: string
  let today: string
  const fields = (overrides: Record<string, string | null> = {}) => ({
    amount: "250.5", currency: "1", is_amount_set_by_user: "0", payment_link_type: "2", name_of_product: "Ceramic mug",
    description: "Hand made, 350 ml", expire_date: daysAfter(today, 10), expire_hour: "15", max_number_of_uses: "3", ...overrides,
  })
  const create = (overrides: Record<string, string | null> = {}, photo?: Blob | null) =>
    postMultipart(`${sandbox.base_url}/api/dpl/create`, linkForm(fields(overrides), photo), token)
  const send = (body: Record<string, unknown>) => postJson(`${sandbox.base_url}/api/dpl/sendemail`, body, token)

  beforeAll(async () => {
    sandbox = await start()
    token = await tokenFor(sandbox)
    today = await istanbulToday(sandbox)
  })
  afterAll(() => sandbox.close())

  it("creates a link: statuscode 100, data.dpl with the interface's record and data.inputs echoing the text fields", async () => {
    const { status, body } = await create()
    expect(status).toBe(200)
    expect(body).toEqual({
      statuscode: 100,
      description: "DPL is created successfully",
      data: {
        dpl: {
          id: expect.any(Number), amount: 250.5, currency: 1, payment_method: null, type: 2,
          expire_date: `${daysAfter(today, 10)} 15:00:00`, expire_time: expect.any(Number), max_number_of_uses: 3, number_of_uses: 0,
          gsm: null, email: null, photo: null, name_of_product: "Ceramic mug", description: "Hand made, 350 ml", merchant_id: 18309,
          created_by: 18309, created_by_name: expect.any(String), modified_by: null, modified_by_name: null,
          token: expect.stringMatching(/^[A-Za-z0-9]+$/), status: "ACTIVE", is_email_send: 0, distance_sale_status: 0,
          is_amount_set_by_user: 0, created_at: expect.stringMatching(ISO_MICRO), updated_at: expect.stringMatching(ISO_MICRO),
        },
        inputs: { amount: "250.5", currency: "1", is_amount_set_by_user: "0", payment_link_type: "2", name_of_product: "Ceramic mug", description: "Hand made, 350 ml" },
      },
    })
    expect(body.data.dpl.expire_time).toBeGreaterThanOrEqual(9 * 24)
  })

  it("takes the optional fields as optional: no hour expires at the end of the day, no max means unlimited (0)", async () => {
    const { body } = await create({ expire_hour: null, max_number_of_uses: null, currency: "3", is_amount_set_by_user: "1" })
    expect(body.data.dpl).toMatchObject({ expire_date: `${daysAfter(today, 10)} 23:59:59`, max_number_of_uses: 0, currency: 3, is_amount_set_by_user: 1 })
  })

  describe("every create rule answers its statuscode and names the field", () => {
    const mandatory = ["amount", "currency", "is_amount_set_by_user", "payment_link_type", "name_of_product", "description", "expire_date"]
    it.each(mandatory)("1 when %s is missing", async (field) => {
      const { body } = await create({ [field]: null })
      expect(body).toEqual({ statuscode: 1, description: `The ${field} field is required.` })
    })

    it("1 when product_photo is missing, not a file, empty or not an image", async () => {
      expect((await create({}, null)).body).toEqual({ statuscode: 1, description: "The product_photo field is required." })
      expect((await create({ product_photo: "photo.png" }, null)).body).toMatchObject({ statuscode: 1, description: "The product_photo must be a file." })
      expect((await create({}, new Blob([], { type: "image/png" }))).body).toMatchObject({ statuscode: 1, description: expect.stringContaining("product_photo") })
      expect((await create({}, new Blob(["%PDF"], { type: "application/pdf" }))).body).toMatchObject({ statuscode: 1, description: expect.stringContaining("product_photo") })
    })

    it.each([
      ["amount", "0", 1], ["amount", "abc", 1], ["amount", "10.999", 1],
      ["currency", "4", 12], ["currency", "TRY", 12],
      ["is_amount_set_by_user", "2", 1], ["is_amount_set_by_user", "true", 1],
      ["payment_link_type", "1", 1],
      ["expire_date", "2026-13-01", 1], ["expire_date", "01.12.2030", 1],
      ["expire_hour", "24", 1], ["expire_hour", "x", 1],
      ["max_number_of_uses", "0", 1], ["max_number_of_uses", "-1", 1],
    ])("%s = %s answers %i", async (field, value, code) => {
      const { body } = await create({ [field]: value })
      expect(body.statuscode).toBe(code)
      expect(body.description).toContain(field)
    })

    it("1 when the expiry (date and hour, Istanbul time) is not in the future", async () => {
      expect((await create({ expire_date: daysAfter(today, -1) })).body).toMatchObject({ statuscode: 1, description: expect.stringContaining("expire_date") })
    })

    it("1 without Accept; 401 without a bearer", async () => {
      expect((await postMultipart(`${sandbox.base_url}/api/dpl/create`, linkForm(fields()), token, { accept: "" })).body).toMatchObject({ statuscode: 1, description: expect.stringContaining("Accept") })
      const anonymous = await fetch(`${sandbox.base_url}/api/dpl/create`, { method: "POST", headers: { accept: "application/json" }, body: linkForm(fields()) })
      expect(anonymous.status).toBe(401)
    })
  })

  it("stores the accepted photo's content type and size (shown on the payer page)", async () => {
    const { body } = await create()
    const page = await fetch(`${sandbox.link_base}/dplLink/${body.data.dpl.token}`).then((r) => r.text())
    expect(page).toContain(`image/png, ${PNG.length} bytes`)
  })

  it("e-mails a link to each address: statuscode 100, is_email_send 1, data.link, one outbox entry per address", async () => {
    const { body: created } = await create()
    const dpl = created.data.dpl
    const { body } = await send({ dpl_id: dpl.id, payment_link_type: 2, email: ["ayse@example.com", "mehmet@example.org"] })
    const link = `${sandbox.link_base}/dplLink/${dpl.token}`
    expect(body).toEqual({
      statuscode: 100, description: "Success",
      data: { dpl: { ...dpl, is_email_send: 1, status: "ACTIVE", email: null, updated_at: expect.stringMatching(ISO_MICRO) }, link },
    })
    const outbox = (await getJson(`${sandbox.link_base}/__sandbox/outbox`)).body.filter((e: any) => e.dpl_id === dpl.id)
    expect(outbox).toEqual([
      { to: "ayse@example.com", subject: expect.stringContaining("Ceramic mug"), link, dpl_id: dpl.id, sent_at: expect.any(String) },
      { to: "mehmet@example.org", subject: expect.stringContaining("Ceramic mug"), link, dpl_id: dpl.id, sent_at: expect.any(String) },
    ])
  })

  describe("every sendemail rule answers its statuscode", () => {
    let dplId: number
    beforeAll(async () => {
      dplId = (await create()).body.data.dpl.id
    })
    it.each([
      ["dpl_id missing", { payment_link_type: 2, email: ["a@b.co"] }, 1, "dpl_id"],
      ["dpl_id not an integer", { dpl_id: "x", payment_link_type: 2, email: ["a@b.co"] }, 1, "dpl_id"],
      ["payment_link_type missing", { dpl_id: 0, email: ["a@b.co"] }, 1, "payment_link_type"],
      ["payment_link_type not 2", { dpl_id: 0, payment_link_type: 1, email: ["a@b.co"] }, 1, "payment_link_type"],
      ["email missing", { dpl_id: 0, payment_link_type: 2 }, 1, "email"],
      ["email not a list", { dpl_id: 0, payment_link_type: 2, email: "a@b.co" }, 1, "email"],
      ["email empty", { dpl_id: 0, payment_link_type: 2, email: [] }, 1, "email"],
      ["an invalid address", { dpl_id: 0, payment_link_type: 2, email: ["a@b.co", "not-an-address"] }, 1, "email.1"],
      ["an unknown link", { dpl_id: 999999, payment_link_type: 2, email: ["a@b.co"] }, 31, "dpl_id"],
    ])("%s", async (_name, request, code, named) => {
      const body = { ...request, ...("dpl_id" in request && request.dpl_id === 0 ? { dpl_id: dplId } : {}) }
      const { body: answer } = await send(body)
      expect(answer.statuscode).toBe(code)
      expect(answer.description).toContain(named)
    })
  })
})
