import { useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';

/** The check of one typed item: its normal form, or why it is refused. */
export type ItemCheck = { ok: true; value: string } | { ok: false; message: string };

export interface ChipListFieldProps {
  label: string;
  values: string[];
  onChange: (values: string[]) => void;
  /** Offered in the list (those already chosen are left out). */
  options: readonly string[];
  check: (raw: string) => ItemCheck;
  /** Whether two items are the same (an item already listed is not added again). */
  same: (a: string, b: string) => boolean;
  placeholder: string;
  /** Shown under the field while nothing is wrong. */
  hint: string;
  /** Other messages about the list (the server's, a rule of the section). */
  messages: string[];
  maxItems: number;
  maxLength: number;
  readOnly: boolean;
}

/**
 * A list edited as chips: an item is added with Enter, a pick from the options or leaving the field, once it
 * passes `check`; a refused one stays in the field with the reason under it.
 */
export function ChipListField(props: ChipListFieldProps) {
  const { values, onChange, check, same, messages, readOnly } = props;
  const [text, setText] = useState('');
  const [typedProblem, setTypedProblem] = useState<string | undefined>(undefined);

  const addTyped = (raw: string) => {
    if (raw.trim() === '') return;
    const checked = check(raw);
    if (!checked.ok) {
      setTypedProblem(`${raw.trim()} — ${checked.message}`);
      setText(raw);
      return;
    }
    if (!values.some((known) => same(known, checked.value))) onChange([...values, checked.value]);
    setTypedProblem(undefined);
    setText('');
  };
  const problems = [...(typedProblem ? [typedProblem] : []), ...messages];

  return (
    <Autocomplete
      multiple
      freeSolo
      options={props.options.filter((option) => !values.includes(option))}
      value={values}
      inputValue={text}
      disabled={readOnly}
      onInputChange={(_event, value, reason) => {
        if (reason === 'input') {
          setText(value);
          setTypedProblem(undefined);
        }
      }}
      onChange={(_event, chosen, reason) => {
        if (reason === 'createOption' || reason === 'selectOption') addTyped(chosen.at(-1) ?? '');
        else onChange(chosen);
      }}
      onBlur={() => addTyped(text)}
      renderInput={(params) => (
        <TextField
          {...params}
          size="small"
          label={props.label}
          placeholder={values.length >= props.maxItems ? undefined : props.placeholder}
          error={problems.length > 0}
          helperText={problems.length > 0 ? problems.join(' ') : props.hint}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, spellCheck: false, maxLength: props.maxLength },
          }}
        />
      )}
    />
  );
}
