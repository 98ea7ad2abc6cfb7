// Keyboard shortcuts of the table, the same in every language (the help overlay lists them).

export type KeyCommand = 'play' | 'pass' | 'clear' | 'bomb' | 'tichu' | 'help';

/** The shortcuts in the order the help overlay shows them: the key as shown, and its command. */
export const SHORTCUTS: readonly (readonly [string, KeyCommand])[] = [
  ['Enter', 'play'],
  ['P', 'pass'],
  ['Esc', 'clear'],
  ['B', 'bomb'],
  ['T', 'tichu'],
  ['?', 'help'],
];

/**
 * The command a key press gives, or null: none while the player types (a text field, a select)
 * or holds a modifier (the browser's own shortcuts stay theirs).
 */
export function keyCommand(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>, target: EventTarget | null): KeyCommand | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const el = target as { tagName?: string; isContentEditable?: boolean } | null;
  if (el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName ?? ''))) return null;
  switch (e.key) {
    case 'Enter': return el?.tagName === 'BUTTON' ? null : 'play'; // a focused button's own Enter wins
    case 'p': case 'P': return 'pass';
    case 'Escape': return 'clear';
    case 'b': case 'B': return 'bomb';
    case 't': case 'T': return 'tichu';
    case '?': return 'help';
  }
  return null;
}
