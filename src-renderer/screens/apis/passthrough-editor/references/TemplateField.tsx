import {
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { MAX_TEMPLATE_LENGTH } from '../../../../api/types.js';
import { MONOSPACE_FONT } from '../../../../theme/theme.js';
import { ErrorMarker, type TemplateProblem } from './ErrorMarker.js';
import type { ReferenceItem } from './reference-catalog.js';
import {
  applyReference,
  completionContextAt,
  matchingReferences,
  openReferenceAt,
  type CompletionContext,
} from './reference-completion.js';
import { ReferenceListbox } from './ReferenceListbox.js';
import { OpenReferenceContext } from './open-reference-context.js';

export interface TemplateFieldProps {
  /** The accessible name; shown as the field's label unless `hideLabel`. */
  label: string;
  hideLabel?: boolean;
  value: string;
  onChange: (value: string) => void;
  references: readonly ReferenceItem[];
  problems?: readonly TemplateProblem[];
  helperText?: ReactNode;
  placeholder?: string;
  disabled?: boolean;
  readOnly?: boolean;
  required?: boolean;
  /** Names the field to the preview (`section2`, `row:<key>`) when it reports a reference being typed. */
  place?: string;
}

interface OpenCompletion {
  context: CompletionContext;
  items: ReferenceItem[];
  active: number;
}

const MAX_SHOWN = 60;

/**
 * A text field for the template language (URL sections, header values): typing `{{#`, `#env.` or `#api.` offers
 * the references (arrows, Enter or Tab, Escape), and problems are marked at their character.
 */
export function TemplateField({
  label,
  hideLabel,
  value,
  onChange,
  references,
  problems = [],
  helperText,
  placeholder,
  disabled,
  readOnly,
  required,
  place,
}: TemplateFieldProps) {
  const listboxId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const anchorRef = useRef<HTMLDivElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const [completion, setCompletion] = useState<OpenCompletion | null>(null);
  /** The caret while the field has the focus. */
  const [caret, setCaret] = useState<number | null>(null);
  const open = completion !== null && completion.items.length > 0;

  useLayoutEffect(() => {
    if (pendingCaret.current === null) return;
    inputRef.current?.setSelectionRange(pendingCaret.current, pendingCaret.current);
    pendingCaret.current = null;
  }, [value]);

  const suggest = (text: string, caret: number | null, forced = false) => {
    const context = caret === null ? null : completionContextAt(text, caret, forced);
    if (!context) {
      setCompletion(null);
      return;
    }
    setCompletion({
      context,
      items: matchingReferences(references, context.query).slice(0, MAX_SHOWN),
      active: 0,
    });
  };

  const accept = (index: number) => {
    const item = completion?.items[index];
    if (!completion || !item) return;
    const applied = applyReference(value, completion.context, item);
    pendingCaret.current = applied.caret;
    setCompletion(null);
    onChange(applied.text);
  };

  const locate = (problem: TemplateProblem & { position: number }) => {
    const input = inputRef.current;
    if (!input) return;
    input.focus();
    input.setSelectionRange(problem.position, problem.position + (problem.length ?? 1));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!open) {
      if (event.key === ' ' && event.ctrlKey) {
        event.preventDefault();
        suggest(value, inputRef.current?.selectionStart ?? null, true);
      }
      return;
    }
    const count = completion.items.length;
    const move = (delta: number) =>
      setCompletion({ ...completion, active: (completion.active + delta + count) % count });
    if (event.key === 'ArrowDown') move(1);
    else if (event.key === 'ArrowUp') move(-1);
    else if (event.key === 'Enter' || event.key === 'Tab') accept(completion.active);
    else if (event.key === 'Escape') {
      // Escape closes the list only, not a dialog around the field.
      event.stopPropagation();
      setCompletion(null);
    } else return;
    event.preventDefault();
  };

  // While a reference is still being typed at the caret, what the preview says about it from there on waits.
  const typing = openReferenceAt(value, caret);
  const reportOpenReference = useContext(OpenReferenceContext);
  useEffect(() => {
    if (place !== undefined) reportOpenReference?.(place, typing);
  }, [place, typing, reportOpenReference]);
  const shownProblems =
    typing === undefined
      ? problems
      : problems.filter((problem) => problem.position === undefined || problem.position < typing);
  const located = shownProblems.filter(
    (problem): problem is TemplateProblem & { position: number } => problem.position !== undefined,
  );
  const unlocated = shownProblems.filter((problem) => problem.position === undefined);
  const hasProblems = shownProblems.length > 0;
  const helper =
    hasProblems || helperText ? (
      <>
        {located.map((problem, index) => (
          <ErrorMarker key={index} text={value} problem={problem} onLocate={() => locate(problem)} />
        ))}
        {unlocated.map((problem, index) => (
          <Box component="span" key={index} sx={{ display: 'block' }}>
            {problem.message}
          </Box>
        ))}
        {helperText && !hasProblems ? helperText : null}
      </>
    ) : undefined;

  return (
    <>
      <TextField
        ref={anchorRef}
        inputRef={inputRef}
        fullWidth
        size="small"
        label={hideLabel ? undefined : label}
        value={value}
        disabled={disabled}
        placeholder={placeholder}
        error={hasProblems}
        helperText={helper}
        onChange={(event) => {
          onChange(event.target.value);
          setCaret(event.target.selectionStart);
          suggest(event.target.value, event.target.selectionStart);
        }}
        onKeyDown={onKeyDown}
        onSelect={(event) => setCaret((event.target as HTMLInputElement).selectionStart)}
        onBlur={() => {
          setCaret(null);
          setCompletion(null);
        }}
        onClick={() => setCompletion(null)}
        slotProps={{
          formHelperText: { component: 'div' },
          htmlInput: {
            ...(hideLabel ? { 'aria-label': label } : {}),
            readOnly,
            // Not `required`: its asterisk would become part of the label the field is found by.
            'aria-required': required || undefined,
            maxLength: MAX_TEMPLATE_LENGTH,
            spellCheck: false,
            autoComplete: 'off',
            role: 'combobox',
            'aria-expanded': open,
            'aria-autocomplete': 'list',
            'aria-controls': open ? listboxId : undefined,
            'aria-activedescendant': open ? `${listboxId}-${completion.active}` : undefined,
            style: { fontFamily: MONOSPACE_FONT, fontSize: '0.875rem' },
          },
        }}
      />
      <ReferenceListbox
        id={listboxId}
        label={`References for ${label}`}
        anchor={open ? anchorRef.current : null}
        items={completion?.items ?? []}
        active={completion?.active ?? 0}
        onChoose={accept}
        onHover={(index) => completion && setCompletion({ ...completion, active: index })}
      />
    </>
  );
}
