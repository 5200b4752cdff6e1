import { useEffect, useRef, type RefObject } from 'react';
import { isTypingTarget } from '../../../keyboard/shortcut-keys.js';

export interface EditorShortcuts {
  /** The keys of the operations list as shown (filtered), All operations first. */
  itemKeys: readonly string[];
  selectedKey: string;
  onSelect: (key: string) => void;
  /** The editor: where the add-header button, the filter and the entry heading are found. */
  root: RefObject<HTMLElement | null>;
}

/** The key that moves through the operations list by `step`, from the selected one; undefined at the ends. */
export function neighbourKey(keys: readonly string[], selected: string, step: 1 | -1): string | undefined {
  const index = keys.indexOf(selected);
  if (index === -1) return keys[0];
  return keys[index + step];
}

/**
 * The editor's keys besides Ctrl+S (the save bar's): Alt+↓/↑ walk the operations from anywhere in the editor,
 * Alt+Shift+H adds a header entry (as its button does, focus included), `/` goes to the operations filter. They
 * are listed on the shortcuts sheet (`?`). Inside a dialog they do nothing.
 */
export function useEditorShortcuts({ itemKeys, selectedKey, onSelect, root }: EditorShortcuts): void {
  const current = useRef({ itemKeys, selectedKey, onSelect });
  useEffect(() => {
    current.current = { itemKeys, selectedKey, onSelect };
  });

  useEffect(() => {
    const find = (selector: string) => root.current?.querySelector<HTMLElement>(selector) ?? undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey) return;
      if (event.target instanceof Element && event.target.closest('[role="dialog"]')) return;
      let handled = true;
      if (event.altKey && !event.shiftKey && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
        const { itemKeys: keys, selectedKey: selected, onSelect: select } = current.current;
        const next = neighbourKey(keys, selected, event.key === 'ArrowDown' ? 1 : -1);
        if (next !== undefined && next !== selected) {
          select(next);
          // The field that had the focus may belong to an entry the next item does not have.
          requestAnimationFrame(() => {
            if (document.activeElement === document.body) find('[data-entry-heading]')?.focus();
          });
        }
      } else if (event.altKey && event.shiftKey && event.code === 'KeyH') {
        const add = find('[data-add-header]');
        if (add instanceof HTMLButtonElement && !add.disabled) add.click();
      } else if (event.key === '/' && !event.altKey && !isTypingTarget(event.target)) {
        find('input[type="search"]')?.focus();
      } else handled = false;
      if (handled) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    // Capture: Alt+↓ would otherwise open the list of a combobox that has the focus.
    window.addEventListener('keydown', onKeyDown, { capture: true });
    return () => window.removeEventListener('keydown', onKeyDown, { capture: true });
  }, [root]);
}
