import { StorageUnavailableError } from '../storage/storage-errors.js';
import type { Request, Response } from 'express';
import { HttpProblem, PROBLEM_CONTENT_TYPE } from './problem.js';
import { ErrorCode, type HttpErrorCode } from '../contracts/error-codes.js';
import { encodePiecesWithKnown, holdsKnownJson } from '../json/known-json.js';

export function sendProblem(req: Request, res: Response, problem: HttpProblem): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const traceId = typeof res.locals.traceId === 'string' ? res.locals.traceId : '';
  for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
  res.status(problem.status);
  res.setHeader('Content-Type', PROBLEM_CONTENT_TYPE);
  res.setHeader('Cache-Control', 'no-store');
  res.end(
    req.method === 'HEAD'
      ? undefined
      : JSON.stringify(problem.toProblem(req.originalUrl.split('?')[0], traceId)),
  );
}

export function sendJson(
  req: Request,
  res: Response,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.status(status);
  if (body === undefined || status === 204) {
    res.end();
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  if (req.method === 'HEAD') res.end();
  // An answer holding JSON made elsewhere (an import's operations) is written from its bytes, not encoded again.
  else if (holdsKnownJson(body)) endBytesInTurns(res, encodePiecesWithKnown(body));
  else endInTurns(res, JSON.stringify(body));
}

/**
 * Answers of this many characters or more are written a slice per turn of the event loop. Turning Microsoft
 * Graph's import answer (4 MB of JSON, its 11,000 operations) into bytes and handing them to the socket in one
 * call held the event loop, and the gateway's requests with it, for 15 to 25 ms.
 */
const SLICED_ANSWER_CHARS = 1024 * 1024;
const ANSWER_SLICE = 256 * 1024;

function endInTurns(res: Response, json: string): void {
  if (json.length < SLICED_ANSWER_CHARS) {
    res.end(json);
    return;
  }
  res.setHeader('Content-Length', Buffer.byteLength(json));
  writeInTurns(res, json.length, (offset) => {
    const end = Math.min(json.length, offset + ANSWER_SLICE);
    // A slice never ends between the two halves of a surrogate pair: each slice is encoded on its own.
    const cut = end < json.length && isHighSurrogate(json.charCodeAt(end - 1)) ? end - 1 : end;
    return { slice: json.slice(offset, cut), end: cut };
  });
}

/** The pieces are written as they are, sliced but never joined (one may be an import's megabytes of operations). */
function endBytesInTurns(res: Response, pieces: readonly Uint8Array[]): void {
  const length = pieces.reduce((sum, piece) => sum + piece.byteLength, 0);
  // A page of a list is small: one write, not a turn of the event loop per piece.
  if (length < SLICED_ANSWER_CHARS) {
    res.end(pieces.length === 1 ? pieces[0] : Buffer.concat(pieces, length));
    return;
  }
  res.setHeader('Content-Length', length);
  let piece = 0;
  let pieceStart = 0;
  writeInTurns(res, length, (offset) => {
    while (offset - pieceStart >= pieces[piece]!.byteLength) pieceStart += pieces[piece++]!.byteLength;
    const bytes = pieces[piece]!;
    const from = offset - pieceStart;
    const to = Math.min(bytes.byteLength, from + ANSWER_SLICE);
    return { slice: bytes.subarray(from, to), end: pieceStart + to };
  });
}

/** Writes `length` units of an answer, one slice (from `sliceAt`) per turn of the event loop. */
function writeInTurns(
  res: Response,
  length: number,
  sliceAt: (offset: number) => { slice: string | Uint8Array; end: number },
): void {
  let offset = 0;
  const writeNext = () => {
    if (res.destroyed) return;
    const { slice, end } = sliceAt(offset);
    offset = end;
    if (offset >= length) res.end(slice);
    else {
      res.write(slice);
      setImmediate(writeNext);
    }
  };
  writeNext();
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The reader's other refusals (e.g. too many form parameters, 413) keep their kind. */
const READ_FAILURE_CODE: Partial<Record<number, HttpErrorCode>> = {
  413: ErrorCode.GH_ERR_PAYLOAD_TOO_LARGE,
  415: ErrorCode.GH_ERR_UNSUPPORTED_MEDIA_TYPE,
};

/** Maps anything thrown during request handling to a problem; unexpected errors never leak their text. */
export function toHttpProblem(error: unknown, onUnexpected: (error: unknown) => void): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error instanceof StorageUnavailableError) {
    // Logged (the cause is for the operator), answered with the public message only.
    onUnexpected(error);
    return new HttpProblem(error.code, error.publicDetail);
  }
  const bodyParserError = error as
    { type?: string; status?: number; expose?: boolean; limit?: number } | null | undefined;
  switch (bodyParserError?.type) {
    case 'entity.parse.failed':
      return new HttpProblem(ErrorCode.GH_ERR_INVALID_JSON, 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new HttpProblem(
        ErrorCode.GH_ERR_PAYLOAD_TOO_LARGE,
        `The request body is larger than the limit of ${bodyParserError.limit ?? 'this endpoint'} bytes.`,
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpProblem(
        ErrorCode.GH_ERR_UNSUPPORTED_MEDIA_TYPE,
        'The request body uses an unsupported encoding or charset.',
      );
    case 'request.aborted':
      return new HttpProblem(ErrorCode.GH_ERR_UNREADABLE_BODY, 'The request was aborted by the client.');
    case 'request.size.invalid':
      return new HttpProblem(
        ErrorCode.GH_ERR_UNREADABLE_BODY,
        'The request body size does not match its Content-Length.',
      );
    default:
      break;
  }
  const status = bodyParserError?.status;
  // The router could not percent-decode a path parameter (`/api/v1/apis/%ZZ`): no resource has that path.
  if (error instanceof URIError && status === 400) {
    return new HttpProblem(
      ErrorCode.GH_ERR_NOT_FOUND,
      'No resource has this path: it is not valid percent-encoding.',
    );
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new HttpProblem(
      READ_FAILURE_CODE[status] ?? ErrorCode.GH_ERR_UNREADABLE_BODY,
      'The request could not be read.',
    );
  }
  onUnexpected(error);
  return new HttpProblem(
    ErrorCode.GH_ERR_INTERNAL,
    'An unexpected error occurred. The trace id identifies it in the server log.',
  );
}
