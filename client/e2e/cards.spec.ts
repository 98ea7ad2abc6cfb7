// The card faces are drawn by the client as SVG: every card of the hand has its drawing, the
// figure of its suit, and its name in words as its label (not the notation, nor a symbol). The
// special cards draw their emblems (龍, 鳳, 犬) or the Mah Jong's 1 in the corner, never "Dr" or "Ph".
import AxeBuilder from '@axe-core/playwright';
import { expect, handCards, seededTable, setName, sit, test } from './fixtures';

// seed 2796 deals the first seat's first eight cards with all four special cards:
// Dg Mj 7b 8k Kr Ab Ph Dr
const SEED = 2796;

test('Tichu cards are SVG faces named in words', async ({ page }) => {
  await setName(page, 'Cards');
  await seededTable(page, { game: 'tichu', seed: SEED });
  await sit(page, 0);
  await page.getByTestId('start-fill').click();
  const cards = handCards(page);
  await expect(cards).toHaveCount(8);
  const faces = await cards.evaluateAll((els) => els.map((e) => ({
    card: e.getAttribute('data-card') ?? '',
    figure: e.getAttribute('data-figure') ?? '',
    label: e.getAttribute('aria-label') ?? '',
    corner: e.querySelector('svg.face text.corner')?.textContent ?? '',
    drawn: [...e.querySelectorAll('svg.face text')].map((t) => t.textContent).join(''),
    svg: e.querySelectorAll('svg.face path').length,
    img: e.querySelectorAll('img').length,
  })));
  expect(faces.map((f) => f.card).sort()).toEqual(['7b', '8k', 'Ab', 'Dg', 'Dr', 'Kr', 'Mj', 'Ph'].sort());
  // what the corners draw: ranks, the Mah Jong's 1 and the emblems, nothing more
  const corner: Record<string, string> = { Mj: '1', Dg: '犬', Ph: '鳳', Dr: '龍' };
  for (const f of faces) {
    expect(f.corner, f.card).toBe(corner[f.card] ?? (f.card[0] === 'T' ? '10' : f.card[0]));
    expect(f.drawn, f.card).toBe(f.corner);
  }
  const figure: Record<string, string> = { g: 'jade', k: 'sword', b: 'pagoda', r: 'star', Mj: 'mahjong', Dg: 'dog', Ph: 'phoenix', Dr: 'dragon' };
  for (const f of faces) {
    expect(f.svg).toBeGreaterThan(0);
    expect(f.img).toBe(0);
    expect(f.figure).toBe(figure[f.card] ?? figure[f.card[1]]);
    expect(f.label).not.toBe(f.card);
  }
  // the label is the card's name in words, in the page's language: "5 of Stars", "별 5"
  const rankWord = (r: string, words: Record<string, string>) => words[r] ?? (r === 'T' ? '10' : r);
  const named = {
    // (a special card's name is the word alone, its corner an emblem; the Mah Jong's keeps its 1)
    en: (c: string) => ({ Mj: '1 Mah Jong', Dg: 'Dog', Ph: 'Phoenix', Dr: 'Dragon' })[c]
      ?? `${rankWord(c[0], { J: 'Jack', Q: 'Queen', K: 'King', A: 'Ace' })} of ${{ g: 'Jade', k: 'Swords', b: 'Pagodas', r: 'Stars' }[c[1]]}`,
    ko: (c: string) => ({ Mj: '1 카드', Dg: '개', Ph: '봉황', Dr: '용' })[c]
      ?? `${{ g: '옥', k: '검', b: '탑', r: '별' }[c[1]]} ${rankWord(c[0], {})}`,
  };
  for (const lang of ['en', 'ko'] as const) {
    await page.getByTestId('language').selectOption(lang);
    const labels = await cards.evaluateAll((els) => els.map((e) => [e.getAttribute('data-card') ?? '', e.getAttribute('aria-label') ?? '']));
    expect(labels.length).toBe(8);
    for (const [card, label] of labels) {
      expect(label, `${lang} ${card}`).toBe(named[lang](card));
      expect(label).not.toMatch(/[◆⚔▲★犬鳳龍麻]|\b[2-9TJQKA][gkbr]\b|\b(Mj|Dg|Ph|Dr)\b/);
    }
  }
  // each name holds what its card draws (WCAG 2.5.3, label in name), in every language
  for (const lang of ['en', 'ko', 'ja'] as const) {
    await page.getByTestId('language').selectOption(lang);
    const axe = await new AxeBuilder({ page }).include('[data-testid="hand"]').withRules(['label-content-name-mismatch']).analyze();
    expect(axe.violations.map((v) => `${lang} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
  await page.getByTestId('language').selectOption('en');
  // a card drawn at its size: its face fills the card
  const box = await cards.first().locator('svg.face').boundingBox();
  expect(box!.width).toBeGreaterThan(30);
  await page.screenshot({ path: 'node_modules/.e2e-results/cards.png' });
});
