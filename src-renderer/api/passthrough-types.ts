/**
 * Payloads of the Passthrough endpoints (`/api/v1/apis/{apiId}/passthrough` and its `/preview`), as the editor
 * uses them; schema names of the OpenAPI document at `/swagger/v1/swagger.json` in the comments.
 */
import type { Policy, PolicyEndpoint, PolicyGrant, PolicyThrottle } from './types.js';

export const HEADER_ACTIONS = ['Add', 'Overwrite', 'Remove'] as const;
export type HeaderAction = (typeof HEADER_ACTIONS)[number];

/** The four templated sections; section 4 (the query) is optional. */
export interface PassthroughTarget {
  section1: string;
  section2: string;
  section3: string;
  section4?: string;
}

export interface PassthroughHeaderEntry {
  action: HeaderAction;
  name: string;
  /** For Add and Overwrite; the same template language as the URL sections. */
  value?: string;
}

export interface PassthroughCors {
  enabled: boolean;
  /** `*`, `scheme://host[:port]`, or `scheme://*.domain` for its subdomains. */
  allowedOrigins: string[];
  allowCredentials: boolean;
  maxAgeSeconds: number;
  /** Response headers browser scripts may read besides the CORS-safelisted ones (`Access-Control-Expose-Headers`). */
  exposeHeaders: string[];
}

export interface PassthroughEntry {
  target: PassthroughTarget;
  cors: PassthroughCors;
  headers: PassthroughHeaderEntry[];
  timeouts: { connectMs: number; responseMs: number };
  maxRequestBodyBytes: number;
  tls: { verify: boolean; caCertificate?: string };
  /** Relays WebSocket connections (`Upgrade: websocket`) to the target. */
  allowWebSocket: boolean;
}

/** `Passthrough` — credential header values that hold literal text read `********` (sent back, they are kept). */
export interface Passthrough {
  id: string;
  apiId: string;
  allOperations?: PassthroughEntry;
  /** Operation key (`GET /orders/{id}`) → entry; wins over allOperations for that operation. */
  operations: Record<string, PassthroughEntry>;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

export interface PassthroughConfiguration {
  allOperations?: PassthroughEntry;
  operations: Record<string, PassthroughEntry>;
}

/** The inline policy of `CreatePassthrough`: named after the API, on its agent group, for its base path. */
export interface InlinePolicy {
  name?: string;
  agentGroupId?: string;
  endpoints?: PolicyEndpoint[];
  grants: PolicyGrant[];
  throttle?: PolicyThrottle;
}

/** `CreatePassthrough` — POST. */
export interface CreatePassthrough extends PassthroughConfiguration {
  policy?: InlinePolicy;
}

/** `ReplacePassthrough` — PUT; with `revision`, a concurrent change is refused (409). */
export interface ReplacePassthrough extends PassthroughConfiguration {
  revision?: number;
}

/** `CreatedPassthrough` (201). */
export interface CreatedPassthrough {
  passthrough: Passthrough;
  policy?: Policy;
}

/** The request a preview renders: defaults come from the operation (`/sample-path` for All operations). */
export interface PreviewSample {
  method?: string;
  /** Path and query under the base path, the full path, or an absolute URL. */
  url?: string;
  headers?: Record<string, string>;
}

/** An entry as a request may send it: settings left out take the server's defaults. */
export type PassthroughEntryInput = Partial<Omit<PassthroughEntry, 'target'>> & { target: PassthroughTarget };

/** `PassthroughPreviewRequest`. */
export interface PassthroughPreviewRequest {
  /** Unsaved entries; without it the saved configuration is previewed. */
  configuration?: {
    allOperations?: PassthroughEntryInput;
    operations?: Record<string, PassthroughEntryInput>;
  };
  /** `allOperations` or an operation key. */
  entry: string;
  agentGroupId?: string;
  sample?: PreviewSample;
}

export interface PreviewError {
  /** `section1`…`section4`, `header:<index>`, `target` or `sample`. */
  place: string;
  /** 0-based, in the text of its place. */
  position: number;
  length?: number;
  message: string;
}

/** `PassthroughPreview` — secrets and credential headers as `********`. */
export interface PassthroughPreview {
  targetUrl: string | null;
  headers: Record<string, string | string[]>;
  errors: PreviewError[];
}

/** The server's defaults and bounds of an entry's settings (passthrough-schemas.ts). */
export const ENTRY_DEFAULTS = {
  cors: { enabled: false, allowCredentials: false, maxAgeSeconds: 600 },
  timeouts: { connectMs: 5_000, responseMs: 30_000 },
  maxRequestBodyBytes: 100 * 1024 * 1024,
  tls: { verify: true },
  allowWebSocket: false,
} as const;

export const ENTRY_BOUNDS = {
  connectMs: { min: 100, max: 120_000 },
  responseMs: { min: 100, max: 900_000 },
  maxRequestBodyBytes: { min: 0, max: 2 * 1024 * 1024 * 1024 },
  maxAgeSeconds: { min: 0, max: 86_400 },
} as const;

export const MAX_TEMPLATE_LENGTH = 4096;
export const MAX_HEADER_ENTRIES = 50;
export const MAX_ALLOWED_ORIGINS = 100;
export const MAX_EXPOSED_HEADERS = 50;
