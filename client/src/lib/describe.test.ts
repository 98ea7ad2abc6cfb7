import { describe as group, expect, it } from 'vitest';
import { arrangeTichu, cardName, comboLabel, ddzKind, describe, describeCombo, phoenixValue, plural, tichuKind } from './describe';
import { LANGS } from './i18n';

const names = ['Ann', 'Bo', 'Cy', 'Dee'];
const en = (action: string, seat = 0, by = 'player') => describe('tichu', 'en', seat, action, names, by);
const ddz = (action: string, seat = 0) => describe('doudizhu', 'en', seat, action, names.slice(0, 3));

group('Tichu actions as sentences', () => {
  it('names the players and the combination', () => {
    expect(en('play 7g 7k')).toBe('Ann plays a pair of 7s (7◆ 7⚔)');
    expect(en('pass', 1)).toBe('Bo passes');
    expect(en('tichu')).toBe('Ann calls Tichu');
    expect(en('grand', 1)).toBe('Bo calls Grand Tichu');
    expect(en('no-grand', 1)).toBe('Grand Tichu: Bo declines');
    expect(en('exchange', 0)).toBe('Ann exchanges');
    expect(en('take', 2)).toBe('Cy takes the trick');
    expect(en('give-dragon 1', 3)).toBe('Dee gives the Dragon trick to Bo');
    expect(en('play Mj wish 8', 2)).toBe('Cy plays the Mah Jong and wishes for an 8');
    expect(en('play Mj 2g 3k 4b 5r wish A', 2)).toBe('Cy plays a straight of 5 cards (Mah Jong 2◆ 3⚔ 4▲ 5★) and wishes for an Ace');
    expect(en('play Dr')).toBe('Ann plays the Dragon');
    expect(en('play Dg')).toBe('Ann plays the Dog');
    expect(en('play Ph')).toBe('Ann plays the Phoenix');
    expect(en('play Tg')).toBe('Ann plays a single 10◆');
    expect(en('play Ak Ar Kg Kr Ph as A')).toBe('Ann plays a full house, Aces full (K◆ K★ A⚔ A★ Phoenix=A)');
    expect(en('play 5g 5k 6b 6r')).toBe('Ann plays stairs of 2 pairs (5◆ 5⚔ 6▲ 6★)');
    expect(en('play 9g 9k 9b 9r')).toBe('Ann plays a bomb: four 9s (9◆ 9⚔ 9▲ 9★)');
    expect(en('play 3g 4g 5g 6g 7g')).toBe('Ann plays a straight-flush bomb of 5 cards (3◆ 4◆ 5◆ 6◆ 7◆)');
    expect(en('play Jg Jk Jr')).toBe('Ann plays three Jacks (J◆ J⚔ J★)');
  });
  it('tells the own exchange card by card, and the timer’s moves', () => {
    expect(en('exchange 9k Jk 5r', 0)).toBe('Ann gives 9⚔ to Bo, J⚔ to Cy, 5★ to Dee');
    expect(en('exchange 9k Jk 5r', 3)).toBe('Dee gives 9⚔ to Ann, J⚔ to Bo, 5★ to Cy');
    expect(en('pass', 1, 'timer')).toBe('Bo passes (time ran out)');
  });
  it('leaves out what it does not know', () => {
    expect(en('no-bomb')).toBeNull();
    expect(en('give-dragon 7')).toBeNull();
    expect(en('play Zz')).toBeNull();
  });
  it('speaks the seeds’ terms in Korean and Japanese', () => {
    expect(describe('tichu', 'ko', 1, 'grand', names)).toBe('Bo 님이 라지 티츄를 선언했습니다');
    expect(describe('tichu', 'ko', 2, 'play Mj wish 8', names)).toBe('Cy 님이 1 카드를 내고 8콜을 했습니다');
    expect(describe('tichu', 'ko', 0, 'play 7g 7k', names)).toBe('Ann 님이 7페어(7◆ 7⚔)를 냈습니다');
    expect(describe('tichu', 'ja', 1, 'grand', names)).toBe('Boさんがラージ・ティチューを宣言しました');
    expect(describe('tichu', 'ja', 2, 'play Mj wish 8', names)).toBe('Cyさんが麻雀を出し、8を指定しました');
    expect(describe('tichu', 'ja', 0, 'play 9g 9k 9b 9r', names)).toBe('Annさんが9のフォーカードのボム（9◆ 9⚔ 9▲ 9★）を出しました');
    expect(describe('tichu', 'ja', 3, 'give-dragon 1', names)).toBe('Deeさんが龍のトリックをBoさんに渡しました');
    expect(describe('tichu', 'de', 2, 'play Mj wish K', names)).toBe('Cy spielt den Mah Jong und wünscht sich einen König');
  });
});

group('Tichu kinds', () => {
  it('are told from the cards', () => {
    expect(tichuKind(['Dg'])).toBe('dog');
    expect(tichuKind(['7g'])).toBe('single');
    expect(tichuKind(['7g', 'Ph'])).toBe('pair');
    expect(tichuKind(['7g', '7k', 'Ph'])).toBe('triple');
    expect(tichuKind(['5g', '5k', '6b', 'Ph'])).toBe('pair_run');
    expect(tichuKind(['2g', '3k', '4b', '5r', 'Ph'])).toBe('straight');
    expect(tichuKind(['2g', '3k', '4b', '5r', '6r', 'Ph'])).toBe('straight');
    expect(tichuKind(['2g', '2k', '4b', '4r', 'Ph'])).toBe('full_house');
    expect(tichuKind(['2g', '2k', '3b', '3r', '4g', 'Ph'])).toBe('pair_run');
    expect(tichuKind(['9g', '9k', '9b', '9r'])).toBe('four_of_a_kind');
  });
});

group('Dou Di Zhu actions as sentences', () => {
  it('names bids and every kind', () => {
    expect(ddz('bid 2')).toBe('Ann bids 2');
    expect(ddz('pass', 1)).toBe('Bo passes');
    expect(ddz('play 333444 79', 1)).toBe('Bo plays a plane with solo kickers (3 3 3 4 4 4 7 9)');
    expect(ddz('play BR', 2)).toBe('Cy plays the rocket (both jokers)');
    expect(ddz('play 7777')).toBe('Ann plays a bomb: four 7s (7 7 7 7)');
    // two decks: bombs of five to eight, and the four jokers
    expect(ddz('play 777777')).toBe('Ann plays a bomb: 6 7s (7 7 7 7 7 7)');
    expect(ddz('play BBRR')).toBe('Ann plays the rocket (all four jokers)');
    expect(describe('doudizhu', 'ko', 0, 'bid 3', names)).toBe('Ann 님이 3점을 불렀습니다');
  });
  it('tells every kind from the cards', () => {
    const cases: [string, string][] = [
      ['7', 'solo'], ['77', 'pair'], ['777', 'trio'], ['7779', 'trio_solo'], ['77799', 'trio_pair'],
      ['34567', 'chain'], ['334455', 'pair_chain'], ['333444', 'plane'], ['33344479', 'plane_solo'],
      ['3334447799', 'plane_pair'], ['7777', 'bomb'], ['777739', 'four_two_solo'], ['77773399', 'four_two_pair'],
      ['BR', 'rocket'], ['77777', 'bomb'], ['BBRR', 'rocket'],
    ];
    for (const [cards, kind] of cases) expect(ddzKind(cards.split('')), cards).toBe(kind);
  });
});

group('plurals', () => {
  it('follow the language’s rules', () => {
    expect(plural('en', 1, { one: '{n} point', other: '{n} points' })).toBe('1 point');
    expect(plural('en', 20, { one: '{n} point', other: '{n} points' })).toBe('20 points');
    expect(plural('ko', 1, { one: 'x', other: '{n}점' })).toBe('1점');
  });
});

// One seeded sequence with every kind of action, as the log shows it in every language.
const TICHU_SEQUENCE: [number, string][] = [
  [0, 'grand'], [1, 'no-grand'], [2, 'no-grand'], [3, 'no-grand'], [1, 'tichu'],
  [0, 'exchange 9k Jk 5r'], [1, 'exchange'], [2, 'exchange'], [3, 'exchange'],
  [2, 'play Mj wish 8'], [3, 'play 8g'], [0, 'play Ph'], [1, 'play Dr'], [2, 'pass'], [3, 'pass'],
  [0, 'pass'], [1, 'give-dragon 0'], [1, 'give-dragon 2'], [1, 'give-dragon 3'], [1, 'play 7g 7k'],
  [2, 'play 9g 9k 9b 9r'], [3, 'play 3g 4g 5g 6g 7g'], [0, 'play Ak Ar Kg Kr Ph as A'],
  [1, 'play 5g 5k 6b 6r'], [2, 'play Jg Jk Jr'], [3, 'play Dg'], [0, 'take'],
  [0, 'play 2g 3k 4b 5r 6r Ph as 7'],
];
const DDZ_SEQUENCE: [number, string][] = [
  [0, 'bid 1'], [1, 'bid 2'], [2, 'pass'], [0, 'bid 3'], [1, 'call'], [2, 'rob'],
  ...['7', '77', '777', '7779', '77799', '34567', '334455', '333444', '33344479', '3334447799', '7777',
    '777739', '77773399', 'BR'].map((c, i) => [i % 3, `play ${c}`] as [number, string]),
];

group('no translated log line shows notation', () => {
  const raw = /\bplay |\bexchange |give-dragon|no-grand|\bbid |\btake\b|\bwish\b|\bas [2-9TJQKA]\b|(?<!\p{L})(Mj|Dg|Ph|Dr|[2-9TJQKA][gkbr])(?!\p{L})/u;
  for (const lang of LANGS) {
    it(lang, () => {
      for (const [seat, action] of TICHU_SEQUENCE) {
        const line = describe('tichu', lang, seat, action, names);
        expect(line, action).not.toBeNull();
        expect(line!, action).not.toMatch(raw);
        // seats are named, never numbered from 0
        if (action.startsWith('give-dragon') || !/\d/.test(action)) expect(line!, action).not.toMatch(/\d/);
        if (lang !== 'en') expect(line!, action).not.toMatch(/\b(plays|passes|calls)\b/);
      }
      for (const [seat, action] of DDZ_SEQUENCE) {
        const line = describe('doudizhu', lang, seat, action, names.slice(0, 3));
        expect(line, action).not.toBeNull();
        expect(line!, action).not.toMatch(raw);
        if (!/\d/.test(action) && action !== 'play BR') expect(line!, action).not.toMatch(/\d/);
      }
    });
  }
  it('every language names each combination differently from English', () => {
    for (const lang of LANGS.filter((l) => l !== 'en')) {
      expect(describeCombo('tichu', lang, ['7g', '7k'])).not.toBe(describeCombo('tichu', 'en', ['7g', '7k']));
    }
  });
});

group('what the table shows of a play', () => {
  it('names the combination without its faces', () => {
    expect(comboLabel('tichu', 'en', ['7g', '7k'])).toBe('a pair of 7s');
    expect(comboLabel('tichu', 'ko', ['7g', '7k'])).toBe('7페어');
    expect(comboLabel('tichu', 'ja', ['9g', '9k', '9b', '9r'])).toBe('9のフォーカードのボム');
    expect(comboLabel('doudizhu', 'en', '33344479'.split(''))).toBe('a plane with solo kickers');
    // a wild card read otherwise: the server's kind is told
    expect(comboLabel('doudizhu', 'en', '3555'.split(''), 'bomb')).toBe('a bomb: four 5s');
    expect(comboLabel('doudizhu', 'ko', '3555'.split(''), 'bomb')).toBe('5폭탄');
    expect(comboLabel('doudizhu', 'en', '3555'.split(''), 'no_such_kind')).toBe('a trio with a solo kicker');
  });
  it('gives a single Phoenix its value: ½ above the single it beat, 1.5 when led', () => {
    expect(phoenixValue([{ cards: 'Ph' }], 0)).toBe('1.5');
    expect(phoenixValue([{ cards: '7g' }, { cards: 'Ph' }], 1)).toBe('7½');
    expect(phoenixValue([{ cards: 'Mj' }, { cards: 'Ph' }], 1)).toBe('1½');
    expect(phoenixValue([{ cards: 'Kg' }, { cards: 'Ar' }, { cards: 'Ph' }], 2)).toBe('A½');
    expect(phoenixValue([{ cards: '7g' }, { cards: 'Ph' }], 0)).toBeNull();
  });
  it('draws the Phoenix where it stands', () => {
    expect(arrangeTichu(['2g', '3k', '5b', '6r', 'Ph'])).toEqual(['2g', '3k', 'Ph', '5b', '6r']);
    expect(arrangeTichu(['Tg', 'Jk', 'Qb', 'Kr', 'Ph'])).toEqual(['Tg', 'Jk', 'Qb', 'Kr', 'Ph']);
    expect(arrangeTichu(['Tg', 'Jk', 'Qb', 'Kr', 'Ar', 'Ph'])).toEqual(['Ph', 'Tg', 'Jk', 'Qb', 'Kr', 'Ar']);
    expect(arrangeTichu(['5g', '5k', '6b', 'Ph'])).toEqual(['5g', '5k', '6b', 'Ph']);
    expect(arrangeTichu(['5g', '6k', '6b', 'Ph'])).toEqual(['5g', 'Ph', '6k', '6b']);
    expect(arrangeTichu(['Kg', 'Kr', 'Ak', 'Ar', 'Ph'])).toEqual(['Kg', 'Kr', 'Ak', 'Ar', 'Ph']);
    expect(arrangeTichu(['7g', 'Ph'])).toEqual(['7g', 'Ph']);
  });
});

group('cards named in words (their aria-labels)', () => {
  it('says rank and suit, never the notation or a symbol', () => {
    expect(['5r', 'Tg', 'Jk', 'Ab'].map((c) => cardName('en', 'tichu', c))).toEqual(['5 of Stars', '10 of Jade', 'Jack of Swords', 'Ace of Pagodas']);
    expect(['5r', 'Tg', 'Jk', 'Ab'].map((c) => cardName('ko', 'tichu', c))).toEqual(['별 5', '옥 10', '검 J', '탑 A']);
    expect(['5r', 'Qk'].map((c) => cardName('ja', 'tichu', c))).toEqual(['星の5', '剣のQ']);
    expect(['5r', 'Kb'].map((c) => cardName('de', 'tichu', c))).toEqual(['Stern 5', 'Pagode König']);
    expect(['Mj', 'Dg', 'Ph', 'Dr'].map((c) => cardName('en', 'tichu', c))).toEqual(['Mah Jong', 'Dog', 'Phoenix', 'Dragon']);
    expect(cardName('ja', 'tichu', 'Dr')).toBe('龍');
    expect(['T', 'B', 'R'].map((c) => cardName('en', 'doudizhu', c))).toEqual(['10', 'Black Joker', 'Red Joker']);
    for (const lang of LANGS) {
      for (const c of ['2g', '9k', 'Tb', 'Ar']) expect(cardName(lang, 'tichu', c)).not.toMatch(/[◆⚔▲★]|\b[2-9TJQKA][gkbr]\b/);
    }
  });
});
