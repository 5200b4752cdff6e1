/** Turns a compiled passthrough entry and one request into the target URL and the forwarded headers. */
export type {
  ForwardingOptions,
  ForwardingPlan,
  ForwardingRefusal,
  ForwardingRequest,
  ForwardingResult,
  ForwardingRoute,
  IncomingHeaders,
  OutgoingHeaders,
} from './forwarding-plan.js';
export { planForwarding } from './forwarding-plan.js';
export { checkHeaderRules } from './header-rule-checks.js';
export {
  connectionListedHeaders,
  HOP_BY_HOP_HEADERS,
  isHopByHop,
  mayBeHopByHopLength,
} from './hop-by-hop.js';
export type { EnvLookup } from './render-scope.js';
export { queryParameter, withoutQueryParameter } from './query-parameters.js';
export { VIA, stopsHere } from './proxy-headers.js';
export { isValidTraceparent, newTraceparent, traceparentFor } from './traceparent.js';
export type { PartialPassthroughEntry } from './compile-forwarding-entry.js';
export { compileForwardingEntry, withEntryDefaults } from './compile-forwarding-entry.js';
export type { TargetLocation } from './target-location.js';
export { targetLocation } from './target-location.js';
