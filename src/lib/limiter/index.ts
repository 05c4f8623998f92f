export { Limiter, type AttemptKeys, type RateLimitRefusal } from "./limiter"
export { DEFAULT_RATE_LIMITS, findRateLimitProblems, resolveRateLimits, type RateLimitOptions, type RateLimits } from "./limits"
export { MemoryLimiterStore, windowOf, type LimiterStore } from "./store"
export { clientAddressOf, parseTrustedProxies, normalizeIp, signClientAddress, verifyClientAddressSignature, type AddressRequest, type TrustedProxies } from "./address"
