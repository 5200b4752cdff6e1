import { useCallback, useMemo, useState } from 'react';
import type { Passthrough } from '../../../../api/types.js';
import {
  draftOf,
  draftSignature,
  withEntry,
  type EntryDraft,
  type PassthroughDraft,
} from './editor-draft.js';

interface DraftState {
  /** The saved configuration the draft started from (`null`: none yet). */
  source: Passthrough | null;
  baseline: string;
  draft: PassthroughDraft;
}

function start(source: Passthrough | null): DraftState {
  const draft = draftOf(source ?? undefined);
  return { source, baseline: draftSignature(draft), draft };
}

export interface PassthroughDraftState {
  draft: PassthroughDraft;
  /** The draft differs from what was loaded or last saved. */
  dirty: boolean;
  setEntry: (key: string, entry: EntryDraft | undefined) => void;
  /** Back to the saved configuration. */
  discard: () => void;
}

/** The editor's working copy of a configuration; a newly loaded or saved configuration starts it afresh. */
export function usePassthroughDraft(saved: Passthrough | null): PassthroughDraftState {
  const [state, setState] = useState<DraftState>(() => start(saved));
  // A save (or reload) hands in a new configuration: the draft restarts from it, as React's derived state.
  if (state.source !== saved) setState(start(saved));

  const signature = useMemo(() => draftSignature(state.draft), [state.draft]);
  const setEntry = useCallback(
    (key: string, entry: EntryDraft | undefined) =>
      setState((current) => ({ ...current, draft: withEntry(current.draft, key, entry) })),
    [],
  );
  const discard = useCallback(() => setState((current) => start(current.source)), []);
  return { draft: state.draft, dirty: signature !== state.baseline, setEntry, discard };
}
