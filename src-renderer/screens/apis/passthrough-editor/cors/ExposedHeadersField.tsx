import { MAX_EXPOSED_HEADERS } from '../../../../api/types.js';
import { ChipListField, type ItemCheck } from './ChipListField.js';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Headers browser scripts often need and cannot read without being told. */
const SUGGESTED = ['ETag', 'Location', 'Content-Disposition', 'Link', 'Retry-After', 'X-Total-Count'];

function checkHeaderName(raw: string): ItemCheck {
  const name = raw.trim();
  return TOKEN.test(name)
    ? { ok: true, value: name }
    : { ok: false, message: "not a valid header name (letters, digits and !#$%&'*+-.^_`|~ only)." };
}

export interface ExposedHeadersFieldProps {
  headers: string[];
  onChange: (headers: string[]) => void;
  /** The server's messages about the list or one of its names. */
  messages: string[];
  readOnly: boolean;
}

/**
 * `Access-Control-Expose-Headers` of the entry as chips: response headers a browser script may read besides the
 * CORS-safelisted ones (Cache-Control, Content-Language, Content-Length, Content-Type, Expires, Last-Modified,
 * Pragma). Names are told apart ignoring case.
 */
export function ExposedHeadersField({ headers, onChange, messages, readOnly }: ExposedHeadersFieldProps) {
  return (
    <ChipListField
      label="Exposed response headers"
      values={headers}
      onChange={onChange}
      options={SUGGESTED}
      check={checkHeaderName}
      same={(a, b) => a.toLowerCase() === b.toLowerCase()}
      placeholder="ETag"
      hint="Response headers browser scripts may read besides the safelisted ones (Access-Control-Expose-Headers). Optional."
      messages={messages}
      maxItems={MAX_EXPOSED_HEADERS}
      maxLength={256}
      readOnly={readOnly}
    />
  );
}
