export default async function globalTeardown() {
  await globalThis.__SIPAY_TEST_DATABASE__?.stop()
}
