import { TextDecoder } from 'node:util';

/** A response body as the editor shows it: text when it is text, else base64. */
export interface ShownBody {
  body: string;
  bodyEncoding: 'text' | 'base64';
}

const TEXT_TYPE =
  /^(text\/|application\/(json|xml|javascript|ecmascript|x-www-form-urlencoded|problem\+json|problem\+xml|graphql|yaml|x-yaml|x-ndjson)$)|\+(json|xml|yaml)$/;

/**
 * Decodes the body with the charset of its `Content-Type` when that names a text type; a body without a type
 * counts as text when it is valid UTF-8 without NULs. Compressed bodies are never text.
 */
export function showBody(
  body: Buffer,
  contentType: string | undefined,
  contentEncoding: string | undefined,
  complete: boolean,
): ShownBody {
  if (body.length === 0) return { body: '', bodyEncoding: 'text' };
  const encoded = contentEncoding !== undefined && contentEncoding.trim().toLowerCase() !== 'identity';
  if (encoded) return base64(body);
  const [mediaType = '', ...parameters] = (contentType ?? '').split(';').map((part) => part.trim());
  const charset = parameters
    .map((parameter) => /^charset\s*=\s*"?([^";]+)"?$/i.exec(parameter)?.[1])
    .find((value) => value !== undefined);
  const type = mediaType.toLowerCase();
  if (type !== '' && !TEXT_TYPE.test(type)) return base64(body);
  const decoder = decoderFor(charset);
  if (type === '' || decoder.encoding === 'utf-8') {
    // A cut body may end inside a character: only a whole-body failure makes it binary.
    const text = tryUtf8(complete ? body : trimPartialCharacter(body));
    if (text === undefined || (type === '' && text.includes('\u0000'))) return base64(body);
    return { body: text, bodyEncoding: 'text' };
  }
  return { body: decoder.decode(body), bodyEncoding: 'text' };
}

function base64(body: Buffer): ShownBody {
  return { body: body.toString('base64'), bodyEncoding: 'base64' };
}

function decoderFor(charset: string | undefined): TextDecoder {
  if (charset) {
    try {
      return new TextDecoder(charset);
    } catch {
      // An unknown charset label: UTF-8 is the best guess for a text type.
    }
  }
  return new TextDecoder('utf-8');
}

function tryUtf8(body: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return undefined;
  }
}

/** Drops an incomplete UTF-8 sequence at the end (at most 3 bytes). */
function trimPartialCharacter(body: Buffer): Buffer {
  for (let back = 1; back <= Math.min(3, body.length); back++) {
    const byte = body[body.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    if (byte >= 0xc0) {
      const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return length > back ? body.subarray(0, body.length - back) : body;
    }
    return body;
  }
  return body;
}
