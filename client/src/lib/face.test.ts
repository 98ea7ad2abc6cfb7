import { describe, expect, it } from 'vitest';
import { cardFace } from './face';
import { translate, type Key } from './i18n';

describe('card faces', () => {
  const ja = (k: Key) => translate('ja', k);
  const en = (k: Key) => translate('en', k);
  it('show the Japanese Dog and Dragon symbol once', () => {
    expect(cardFace('tichu', 'Dg', ja)).toEqual({ rank: '犬', sym: '', cls: 'special dog' });
    expect(cardFace('tichu', 'Dr', ja)).toEqual({ rank: '龍', sym: '', cls: 'special dragon' });
    expect(cardFace('tichu', 'Dr', en)).toEqual({ rank: 'Dr', sym: '龍', cls: 'special dragon' });
  });
  it('show ranks and suits', () => {
    expect(cardFace('tichu', 'Tg', en)).toEqual({ rank: '10', sym: '◆', cls: 'jade' });
    expect(cardFace('doudizhu', 'R', en)).toEqual({ rank: 'JK', sym: '★', cls: 'joker red' });
    expect(cardFace('doudizhu', 'T', en)).toEqual({ rank: '10', sym: '', cls: 'ddz' });
  });
});
