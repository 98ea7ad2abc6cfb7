import { describe as group, expect, it } from 'vitest';
import { SHORTCUTS, keyCommand } from './keys';

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({
  key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods,
});

group('keyboard shortcuts', () => {
  it('maps each listed key to its command', () => {
    expect(SHORTCUTS.map(([k]) => keyCommand(key(k === 'Esc' ? 'Escape' : k), null)))
      .toEqual(SHORTCUTS.map(([, c]) => c));
    expect(keyCommand(key('p'), null)).toBe('pass');
    expect(keyCommand(key('x'), null)).toBeNull();
  });

  it('leaves typing, modifiers and a focused button alone', () => {
    expect(keyCommand(key('p'), { tagName: 'INPUT' } as unknown as EventTarget)).toBeNull();
    expect(keyCommand(key('t'), { tagName: 'TEXTAREA' } as unknown as EventTarget)).toBeNull();
    expect(keyCommand(key('p', { ctrlKey: true }), null)).toBeNull();
    expect(keyCommand(key('Enter'), { tagName: 'BUTTON' } as unknown as EventTarget)).toBeNull();
    expect(keyCommand(key('Enter'), { tagName: 'DIV' } as unknown as EventTarget)).toBe('play');
  });
});
