import { request as httpRequest, type IncomingMessage } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { pipeline, type Readable, type Transform } from 'node:stream';
import { ErrorCode, type HttpErrorCode } from '../../../core/contracts/error-codes.js';
import { GatehouseError } from '../../../core/errors/gatehouse-error.js';
import { isNonPublicAddress } from './address-policy.js';

/** Limits of one import from a URL: every file it loads counts against them. */
export interface FetchLimits {
  /** Largest body, after decompression. */
  maxBytes: number;
  /** For each file, from the first DNS lookup to the last byte. */
  timeoutMs: number;
  maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = {
  maxBytes: 25 * 1024 * 1024,
  timeoutMs: 30_000,
  maxRedirects: 5,
};

export type FetchFailureReason =
  | 'invalid-url'
  | 'private-address'
  | 'unreachable'
  | 'timeout'
  | 'too-large'
  | 'http-status'
  | 'too-many-redirects';

/** The problem code of each reason a description cannot be loaded (docs/ERROR-CODES.md). */
export const FETCH_FAILURE_CODES = {
  'invalid-url': ErrorCode.GH_ERR_VALIDATION,
  'private-address': ErrorCode.GH_ERR_PRIVATE_ADDRESS,
  'too-large': ErrorCode.GH_ERR_DOCUMENT_TOO_LARGE,
  unreachable: ErrorCode.GH_ERR_DOCUMENT_UNAVAILABLE,
  timeout: ErrorCode.GH_ERR_DOCUMENT_UNAVAILABLE,
  'http-status': ErrorCode.GH_ERR_DOCUMENT_UNAVAILABLE,
  'too-many-redirects': ErrorCode.GH_ERR_DOCUMENT_UNAVAILABLE,
} as const satisfies Record<FetchFailureReason, HttpErrorCode>;

/** Why a URL could not be loaded, in plain words; `host` and `address` name a refused private address. */
export class FetchFailure extends GatehouseError {
  override name = 'FetchFailure';

  constructor(
    readonly reason: FetchFailureReason,
    message: string,
    readonly details: { url: string; host?: string; address?: string; status?: number },
  ) {
    super(FETCH_FAILURE_CODES[reason], message);
  }
}

export interface FetchedDocument {
  body: Buffer;
  /** The `Content-Type` without parameters, lower-cased. */
  mediaType?: string;
  /** After redirects: relative `$ref`s resolve against it. */
  finalUrl: string;
}

export interface FetchPolicy {
  /** The admin confirmed that loopback and private addresses may be reached for this import. */
  allowPrivateAddress: boolean;
  limits: FetchLimits;
  signal?: AbortSignal;
}

const ACCEPT =
  'application/vnd.oai.openapi+json, application/vnd.oai.openapi, application/json, application/yaml, text/yaml;q=0.9, */*;q=0.5';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs a description over http or https. Every address the host resolves to is checked first, and the
 * connection goes to a checked address only (no second lookup a rebinding DNS server could answer
 * differently); each redirect is checked the same way.
 */
export async function fetchDocument(url: string, policy: FetchPolicy): Promise<FetchedDocument> {
  let current = parseHttpUrl(url);
  for (let redirects = 0; ; redirects++) {
    const response = await requestOnce(current, policy);
    if (!response.redirect) return response.document(current.href);
    const location = response.location;
    if (location === undefined) {
      throw new FetchFailure(
        'http-status',
        `${current.host} answered ${response.status} without a Location`,
        {
          url: current.href,
          status: response.status,
        },
      );
    }
    if (redirects >= policy.limits.maxRedirects) {
      throw new FetchFailure('too-many-redirects', `more than ${policy.limits.maxRedirects} redirects`, {
        url: current.href,
      });
    }
    current = parseHttpUrl(new URL(location, current).href);
  }
}

/** An http or https URL without credentials; anything else is refused before any connection. */
export function parseHttpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new FetchFailure('invalid-url', `${JSON.stringify(text)} is not a URL`, { url: text });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchFailure('invalid-url', `only http and https URLs can be imported, not ${url.protocol}`, {
      url: text,
    });
  }
  if (url.username !== '' || url.password !== '') {
    throw new FetchFailure('invalid-url', 'a URL with a user name or password is not accepted', {
      url: withoutCredentials(url),
    });
  }
  url.hash = '';
  return url;
}

export function withoutCredentials(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

type OnceResponse =
  | { status: number; redirect: true; location?: string }
  | { status: number; redirect: false; document: (finalUrl: string) => Promise<FetchedDocument> };

async function requestOnce(url: URL, policy: FetchPolicy): Promise<OnceResponse> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = await resolveChecked(hostname, url.href, policy);
  const deadline = AbortSignal.timeout(policy.limits.timeoutMs);
  const signal = policy.signal ? AbortSignal.any([policy.signal, deadline]) : deadline;
  const pinned: LookupFunction = (_host, options, callback) => {
    const first = addresses[0]!;
    if ((options as { all?: boolean }).all) callback(null, addresses);
    else callback(null, first.address, first.family);
  };
  // node:https and node:dns/promises (with node:tls, ~4 ms of CPU) load at the first import from a URL, not at
  // every start of the server.
  const send = url.protocol === 'https:' ? process.getBuiltinModule('node:https').request : httpRequest;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = send(url, {
      method: 'GET',
      lookup: pinned,
      signal,
      headers: {
        Accept: ACCEPT,
        'Accept-Encoding': 'gzip, deflate, br',
        'User-Agent': 'Gatehouse API import',
      },
    });
    request.once('response', resolve);
    request.once('error', (error) => reject(networkFailure(error, url, signal, deadline)));
    request.end();
  });
  const status = response.statusCode ?? 0;
  if (REDIRECTS.has(status)) {
    response.resume();
    const location = response.headers.location;
    return { status, redirect: true, ...(location ? { location } : {}) };
  }
  if (status < 200 || status > 299) {
    response.resume();
    throw new FetchFailure('http-status', `${url.host} answered ${status} for ${url.pathname}`, {
      url: url.href,
      status,
    });
  }
  return {
    status,
    redirect: false,
    document: async (finalUrl) => {
      const body = await readLimited(response, url, policy.limits.maxBytes, signal, deadline);
      const mediaType = response.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      return { body, finalUrl, ...(mediaType ? { mediaType } : {}) };
    },
  };
}

async function resolveChecked(
  hostname: string,
  url: string,
  policy: FetchPolicy,
): Promise<Array<{ address: string; family: number }>> {
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(hostname) !== 0) addresses = [{ address: hostname, family: isIP(hostname) }];
  else {
    try {
      addresses = await process
        .getBuiltinModule('node:dns/promises')
        .lookup(hostname, { all: true, verbatim: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'lookup failed';
      throw new FetchFailure('unreachable', `the host name ${hostname} could not be resolved (${code})`, {
        url,
      });
    }
  }
  if (!policy.allowPrivateAddress) {
    const local = addresses.find((candidate) => isNonPublicAddress(candidate.address));
    if (local) {
      throw new FetchFailure(
        'private-address',
        `${hostname} resolves to ${local.address}, a loopback or private address: confirm that this import may reach it`,
        { url, host: hostname, address: local.address },
      );
    }
  }
  return addresses;
}

function networkFailure(error: Error, url: URL, signal: AbortSignal, deadline: AbortSignal): Error {
  if (error instanceof FetchFailure) return error;
  if (deadline.aborted) return timeoutFailure(url);
  if (signal.aborted) return error;
  const code = (error as NodeJS.ErrnoException).code ?? error.message;
  return new FetchFailure('unreachable', `could not load ${url.href}: ${code}`, { url: url.href });
}

function timeoutFailure(url: URL): FetchFailure {
  return new FetchFailure('timeout', `${url.host} did not send the document in time`, { url: url.href });
}

async function readLimited(
  response: IncomingMessage,
  url: URL,
  maxBytes: number,
  signal: AbortSignal,
  deadline: AbortSignal,
): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  const encoding = (response.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'identity' && Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge(url, maxBytes);
  }
  const stream = decoded(response, encoding);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw tooLarge(url, maxBytes);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    response.destroy();
    if (error instanceof FetchFailure) throw error;
    if (deadline.aborted) throw timeoutFailure(url);
    if (signal.aborted) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new FetchFailure('unreachable', `the download of ${url.href} broke off: ${code}`, {
      url: url.href,
    });
  }
  return Buffer.concat(chunks, size);
}

function decoded(response: IncomingMessage, encoding: string): Readable {
  let decoder: Transform | undefined;
  if (encoding === 'gzip' || encoding === 'x-gzip') decoder = createGunzip();
  else if (encoding === 'deflate') decoder = createInflate();
  else if (encoding === 'br') decoder = createBrotliDecompress();
  if (!decoder) return response;
  // A failure on either side destroys the decoder too, so reading it ends with that error.
  return pipeline(response, decoder, () => undefined);
}

function tooLarge(url: URL, maxBytes: number): FetchFailure {
  return new FetchFailure(
    'too-large',
    `the document at ${url.href} is larger than the limit of ${Math.round(maxBytes / 1024 / 1024)} MiB`,
    { url: url.href },
  );
}
