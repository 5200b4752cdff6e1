import { useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { MAX_EXPOSED_HEADERS } from '../../../../api/passthrough-types.js';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Headers browser scripts often need and cannot read without being told. */
const SUGGESTED = ['ETag', 'Location', 'Content-Disposition', 'Link', 'Retry-After', 'X-Total-Count'];

export interface ExposedHeadersFieldProps {
  headers: string[];
  onChange(headers: string[]): void;
  /** The server's messages about the list or one of its names. */
  messages: string[];
  readOnly: boolean;
}

/**
 * `Access-Control-Expose-Headers` of the entry as chips: response headers a browser script may read besides the
 * CORS-safelisted ones (Cache-Control, Content-Language, Content-Length, Content-Type, Expires, Last-Modified,
 * Pragma).
 */
export function ExposedHeadersField({ headers, onChange, messages, readOnly }: ExposedHeadersFieldProps) {
  const [text, setText] = useState('');
  const [typedProblem, setTypedProblem] = useState<string | undefined>(undefined);

  const addTyped = (raw: string) => {
    const name = raw.trim();
    if (name === '') return;
    if (!TOKEN.test(name)) {
      setTypedProblem(`${name} is not a valid header name (letters, digits and !#$%&'*+-.^_\`|~ only).`);
      setText(raw);
      return;
    }
    if (!headers.some((known) => known.toLowerCase() === name.toLowerCase())) onChange([...headers, name]);
    setTypedProblem(undefined);
    setText('');
  };
  const problems = [...(typedProblem ? [typedProblem] : []), ...messages];

  return (
    <Autocomplete
      multiple
      freeSolo
      options={SUGGESTED.filter((name) => !headers.includes(name))}
      value={headers}
      inputValue={text}
      disabled={readOnly}
      onInputChange={(_event, value, reason) => {
        if (reason === 'input') {
          setText(value);
          setTypedProblem(undefined);
        }
      }}
      onChange={(_event, values, reason) => {
        if (reason === 'createOption' || reason === 'selectOption') addTyped(values.at(-1) ?? '');
        else onChange(values);
      }}
      onBlur={() => addTyped(text)}
      renderInput={(params) => (
        <TextField
          {...params}
          size="small"
          label="Exposed response headers"
          placeholder={headers.length >= MAX_EXPOSED_HEADERS ? undefined : 'ETag'}
          error={problems.length > 0}
          helperText={
            problems.length > 0
              ? problems.join(' ')
              : 'Response headers browser scripts may read besides the safelisted ones (Access-Control-Expose-Headers). Optional.'
          }
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, spellCheck: false, maxLength: 256 },
          }}
        />
      )}
    />
  );
}
