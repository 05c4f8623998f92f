export { GATEWAY_CHECK_INTERVAL_MS, Limiter, type Admission, type AttemptKeys, type DeclineSignals, type RateLimitRefusal } from "./limiter"
export { DEFAULT_RATE_LIMITS, findRateLimitProblems, resolveRateLimits, type RateLimitOptions, type RateLimits } from "./limits"
export { MemoryLimiterStore, windowOf, type LimiterStore } from "./store"
export { MemoryAttemptLog, type AttemptLog, type AttemptStatusReader, type LoggedAttempt } from "./attempt-log"
export { addressLimitKey, addressPrefixKey, canonicalIp } from "./ip"
export {
  clientAddressOf,
  parseAddressList,
  parseTrustedProxies,
  resolveClientAddress,
  signClientAddress,
  verifyClientAddressSignature,
  type AddressRequest,
  type ClientAddress,
  type TrustedProxies,
} from "./address"
