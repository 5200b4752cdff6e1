/** Whether a key press lands where typing goes: then a printable shortcut (`?`, `/`) is just a character. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['button', 'checkbox', 'radio', 'range', 'reset', 'submit', 'file', 'color'].includes(target.type);
}

const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** `Ctrl` or `⌘`, as the platform names the key that Ctrl+S uses. */
export const COMMAND_KEY = IS_MAC ? '⌘' : 'Ctrl';
/** `Alt` or `⌥`. */
export const OPTION_KEY = IS_MAC ? '⌥' : 'Alt';

export interface ShortcutGroup {
  title: string;
  shortcuts: { keys: string[]; action: string }[];
}

/** What the sheet lists: the console's keys, then the Passthrough editor's. */
export const SHORTCUT_GROUPS: readonly ShortcutGroup[] = [
  {
    title: 'Everywhere',
    shortcuts: [
      { keys: ['?'], action: 'Show these keyboard shortcuts' },
      { keys: ['Tab', 'Shift+Tab'], action: 'Move to the next or previous control' },
      { keys: ['Esc'], action: 'Close a dialog, a menu or a details panel' },
    ],
  },
  {
    title: 'Passthrough editor',
    shortcuts: [
      { keys: [`${COMMAND_KEY}+S`], action: 'Save (and deploy) the configuration' },
      { keys: [`${OPTION_KEY}+↓`, `${OPTION_KEY}+↑`], action: 'Next or previous operation' },
      { keys: [`${OPTION_KEY}+Shift+H`], action: 'Add a header entry to the selected item' },
      { keys: ['/'], action: 'Filter the operations' },
      { keys: ['↑', '↓', 'Home', 'End'], action: 'Move in the operations list' },
      { keys: ['Ctrl+Space'], action: 'Show the references in a URL section or header value' },
      { keys: ['↑', '↓', 'Enter', 'Esc'], action: 'Choose a reference, or close the list' },
    ],
  },
];
