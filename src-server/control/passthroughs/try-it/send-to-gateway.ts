import { request as httpRequest, type IncomingMessage } from 'node:http';

/** Bytes of the answer kept for display. */
export const MAX_KEPT_BODY_BYTES = 256 * 1024;
/** Bytes read (and dropped) past the kept part before the connection is cut: a huge download is not waited for. */
const MAX_DRAINED_BYTES = 16 * 1024 * 1024;

export interface GatewayRequest {
  host: string;
  port: number;
  method: string;
  /** Path and query, already encoded. */
  path: string;
  headers: readonly { name: string; value: string }[];
  body: Buffer | undefined;
  timeoutMs: number;
}

export interface GatewayAnswer {
  status: number;
  statusText: string;
  headers: { name: string; value: string }[];
  /** The first `MAX_KEPT_BODY_BYTES` of the body. */
  body: Buffer;
  bodyBytes: number;
  /** False when the body was cut: by the connection, the time limit, or its size. */
  complete: boolean;
  durationMs: number;
}

export type GatewayExchange =
  { ok: true; answer: GatewayAnswer } | { ok: false; failure: 'timeout' | 'unreachable'; durationMs: number };

/**
 * Sends one request to a gateway listener and reads its answer, bounded in time and in what it keeps. A time
 * limit reached after the answer started still returns what arrived.
 */
export function sendToGateway(request: GatewayRequest): Promise<GatewayExchange> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  return new Promise((resolve) => {
    let settled = false;
    let reading: AnswerReader | undefined;
    const settle = (result: GatewayExchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const answered = (answer: Omit<GatewayAnswer, 'durationMs'>) =>
      settle({ ok: true, answer: { ...answer, durationMs: elapsed() } });
    const req = httpRequest({
      host: request.host,
      port: request.port,
      method: request.method,
      path: request.path,
      agent: false,
    });
    const timer = setTimeout(() => {
      if (reading) answered(reading.snapshot(false));
      else settle({ ok: false, failure: 'timeout', durationMs: elapsed() });
    }, request.timeoutMs);

    for (const [name, values] of groupHeaders(request.headers)) req.setHeader(name, values);
    if (request.body !== undefined) req.setHeader('Content-Length', String(request.body.length));

    req.on('error', () => {
      if (reading) answered(reading.snapshot(false));
      else settle({ ok: false, failure: 'unreachable', durationMs: elapsed() });
    });
    req.on('response', (res) => {
      reading = readAnswer(res, answered);
    });
    req.end(request.body);
  });
}

interface AnswerReader {
  snapshot: (complete: boolean) => Omit<GatewayAnswer, 'durationMs'>;
}

function readAnswer(
  res: IncomingMessage,
  done: (answer: Omit<GatewayAnswer, 'durationMs'>) => void,
): AnswerReader {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let bodyBytes = 0;
  const reader: AnswerReader = {
    snapshot: (complete) => ({
      status: res.statusCode ?? 0,
      statusText: res.statusMessage ?? '',
      headers: pairs(res.rawHeaders),
      body: Buffer.concat(kept, keptBytes),
      bodyBytes,
      complete: complete && bodyBytes === keptBytes,
    }),
  };
  res.on('data', (chunk: Buffer) => {
    bodyBytes += chunk.length;
    if (keptBytes < MAX_KEPT_BODY_BYTES) {
      const part = chunk.subarray(0, MAX_KEPT_BODY_BYTES - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
    if (bodyBytes > MAX_KEPT_BODY_BYTES + MAX_DRAINED_BYTES) done(reader.snapshot(false));
  });
  res.on('end', () => done(reader.snapshot(true)));
  // A connection cut mid-body still shows what arrived.
  res.on('error', () => done(reader.snapshot(false)));
  res.on('close', () => done(reader.snapshot(res.complete)));
  return reader;
}

/** One `setHeader` per name, values in order, named as first written. */
function groupHeaders(headers: readonly { name: string; value: string }[]): Map<string, string[]> {
  const byLowerName = new Map<string, { name: string; values: string[] }>();
  for (const { name, value } of headers) {
    const key = name.toLowerCase();
    const existing = byLowerName.get(key);
    if (existing) existing.values.push(value);
    else byLowerName.set(key, { name, values: [value] });
  }
  return new Map([...byLowerName.values()].map(({ name, values }) => [name, values]));
}

function pairs(raw: readonly string[]): { name: string; value: string }[] {
  const result: { name: string; value: string }[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) {
    result.push({ name: raw[index]!, value: raw[index + 1]! });
  }
  return result;
}
