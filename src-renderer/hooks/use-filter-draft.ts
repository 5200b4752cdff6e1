import { useCallback, useEffect, useRef, useState } from 'react';

const DEBOUNCE_MS = 400;

/** A field's problem by field name. */
export type DraftProblems = Partial<Record<string, string>>;

/** How a filter form turns between the applied filter and what is typed. Pure functions, made once per screen. */
export interface FilterForm<F, D, P extends DraftProblems> {
  draftOf: (filter: F) => D;
  /** The filter of a draft without problems. */
  filterOf: (draft: D) => F;
  problemsOf: (draft: D) => P;
  sameFilter: (a: F, b: F) => boolean;
}

export interface FilterDraft<D, P> {
  draft: D;
  /** Judged once typing pauses, so a half-typed value is not flagged at every keystroke. */
  problems: P;
  /** Stable, for memoized fields. */
  update: (change: Partial<D>) => void;
  /** Applies the draft at once if it has no problems (Enter in the form). */
  submit: () => void;
}

function sameProblems(a: DraftProblems, b: DraftProblems): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => a[key] === b[key]);
}

const hasProblems = (problems: DraftProblems) => Object.keys(problems).length > 0;

/**
 * A filter form's draft: applied once typing pauses and it has no problems, and replaced when the filter changes
 * under the form (Back/Forward, a shared link) rather than by this form's own apply.
 */
export function useFilterDraft<F, D extends object, P extends DraftProblems>(
  form: FilterForm<F, D, P>,
  filter: F,
  onApply: (filter: F) => void,
): FilterDraft<D, P> {
  const [draft, setDraft] = useState<D>(() => form.draftOf(filter));
  const [problems, setProblems] = useState<P>(() => form.problemsOf(form.draftOf(filter)));

  const onApplyRef = useRef(onApply);
  useEffect(() => {
    onApplyRef.current = onApply;
  });
  const lastApplied = useRef(filter);
  const apply = useCallback((next: F) => {
    lastApplied.current = next;
    onApplyRef.current(next);
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => {
      const judged = form.problemsOf(draft);
      // Straight from the timer rather than from a render of the paused draft: the request leaves at once.
      if (!hasProblems(judged)) apply(form.filterOf(draft));
      setProblems((current) => (sameProblems(current, judged) ? current : judged));
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [form, draft, apply]);

  useEffect(() => {
    if (form.sameFilter(filter, lastApplied.current)) return;
    lastApplied.current = filter;
    setDraft(form.draftOf(filter));
  }, [form, filter]);

  const update = useCallback((change: Partial<D>) => setDraft((current) => ({ ...current, ...change })), []);
  const submit = () => {
    if (!hasProblems(form.problemsOf(draft))) apply(form.filterOf(draft));
  };
  return { draft, problems, update, submit };
}
