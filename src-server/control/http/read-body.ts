import express, { type Request, type RequestHandler, type Response } from 'express';
import type { ZodType } from 'zod';
import { HttpProblem } from '../../core/http/problem.js';
import type { FormBodySpec, JsonBodySpec, RawBodySpec } from './route.js';
import { zodErrorsToProblem } from '../../core/http/zod-problem.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';
import { readDeclaredLengthBody, type RawBody } from './read-raw-body.js';

const DEFAULT_JSON_LIMIT = 1024 * 1024;

function run(middleware: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    middleware(req, res, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * A body declared larger than the limit is refused before a byte of it is read. body-parser reads the rest of a
 * refused body before answering, so that the connection can serve the next request: for a client that declared a
 * length and waits for the answer before sending (or never sends), that answer never came. The connection closes
 * after this one instead.
 */
function refuseDeclaredTooLarge(req: Request, res: Response, limit: number): void {
  const declared = Number(req.headers['content-length']);
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  // A compressed body's limit is on what it inflates to: body-parser checks that as it reads.
  if (!(declared > limit) || encoding !== 'identity') return;
  res.setHeader('Connection', 'close');
  throw new HttpProblem(
    ErrorCode.GH_ERR_PAYLOAD_TOO_LARGE,
    `The request body is larger than the limit of ${limit} bytes.`,
  );
}

function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/** Creates the body reader of one route; parsers are built once per route, not per request. */
export function bodyReader(spec: JsonBodySpec<unknown> | RawBodySpec | FormBodySpec<unknown> | undefined) {
  if (!spec) return (): Promise<unknown> => Promise.resolve(undefined);
  if (spec.kind === 'raw') {
    const parser = express.raw({ type: () => true, limit: spec.limit });
    return async (req: Request, res: Response): Promise<unknown> => {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!spec.contentTypes.includes(type)) {
        throw new HttpProblem(
          ErrorCode.GH_ERR_UNSUPPORTED_MEDIA_TYPE,
          `Send the document as one of: ${spec.contentTypes.join(', ')}.`,
        );
      }
      refuseDeclaredTooLarge(req, res, spec.limit);
      const declared = readDeclaredLengthBody(req, spec.limit);
      let body: RawBody | undefined;
      if (declared) body = await declared;
      else {
        await run(parser, req, res);
        const joined = req.body as unknown;
        if (Buffer.isBuffer(joined)) body = { chunks: [joined], byteLength: joined.length };
      }
      if (!body || body.byteLength === 0)
        throw new HttpProblem(ErrorCode.GH_ERR_BODY_REQUIRED, 'The request body is empty.');
      return body;
    };
  }
  const limit = spec.kind === 'json' ? (spec.limit ?? DEFAULT_JSON_LIMIT) : DEFAULT_JSON_LIMIT;
  const parser =
    spec.kind === 'json'
      ? express.json({ limit, strict: false, type: () => true })
      : express.urlencoded({ extended: false, limit, type: () => true });
  const expectedType = spec.kind === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  const required = spec.kind === 'form' || spec.required !== false;
  return async (req: Request, res: Response): Promise<unknown> => {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!hasBody(req)) {
      if (required)
        throw new HttpProblem(ErrorCode.GH_ERR_BODY_REQUIRED, `A ${expectedType} request body is required.`);
      return validate(spec.schema, undefined);
    }
    const acceptable =
      spec.kind === 'json' ? type === 'application/json' || type.endsWith('+json') : type === expectedType;
    if (!acceptable)
      throw new HttpProblem(
        ErrorCode.GH_ERR_UNSUPPORTED_MEDIA_TYPE,
        `Send the request body as ${expectedType}.`,
      );
    refuseDeclaredTooLarge(req, res, limit);
    await run(parser, req, res);
    return validate(spec.schema, req.body);
  };
}

function validate(schema: ZodType, value: unknown): unknown {
  const result = schema.safeParse(value);
  if (!result.success) throw zodErrorsToProblem(result.error, 'body');
  return result.data;
}
