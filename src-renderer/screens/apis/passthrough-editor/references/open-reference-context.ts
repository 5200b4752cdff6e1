import { createContext } from 'react';

/**
 * Told by each template field (by its `place`) where a reference is still being typed at its caret, or
 * undefined: the preview does not call an unfinished reference an error while it is typed.
 */
export type OpenReferenceReporter = (place: string, from: number | undefined) => void;

export const OpenReferenceContext = createContext<OpenReferenceReporter | undefined>(undefined);
