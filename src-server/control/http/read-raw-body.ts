import type { Request } from 'express';

/**
 * Reads a raw body of a declared length into one buffer allocated up front, each chunk copied as it arrives.
 * express.raw (raw-body) keeps the chunks and joins them at the end: for a 20 MB API description that join was a
 * 12 to 17 ms copy in one piece on the main thread, which the gateway's requests waited behind, and a second
 * 20 MB allocation. Only for bodies that can be read so (a Content-Length within `limit`, no Content-Encoding):
 * returns undefined for the others, which express.raw reads as before. Failures carry body-parser's error
 * types, so they are answered alike (send.ts).
 */
export function readDeclaredLengthBody(req: Request, limit: number): Promise<Buffer> | undefined {
  const declared = req.headers['content-length'];
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (declared === undefined || encoding !== 'identity' || req.headers['transfer-encoding'] !== undefined)
    return undefined;
  const length = Number(declared);
  if (!Number.isSafeInteger(length) || length <= 0 || length > limit) return undefined;
  return new Promise<Buffer>((resolve, reject) => {
    const body = Buffer.allocUnsafeSlow(length);
    let received = 0;
    const fail = (type: string, message: string) => {
      cleanup();
      reject(Object.assign(new Error(message), { type, status: 400, expose: true }));
    };
    const onData = (chunk: Buffer) => {
      if (received + chunk.length > length) {
        fail('request.size.invalid', 'request size did not match content length');
        return;
      }
      chunk.copy(body, received);
      received += chunk.length;
    };
    const onEnd = () => {
      cleanup();
      if (received === length) resolve(body);
      else
        reject(
          Object.assign(new Error('request size did not match content length'), {
            type: 'request.size.invalid',
            status: 400,
            expose: true,
          }),
        );
    };
    const onAborted = () => fail('request.aborted', 'request aborted');
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    function cleanup() {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('error', onError);
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('error', onError);
  });
}
