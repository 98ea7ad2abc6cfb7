// The card faces are drawn by the client as SVG: every card of the hand has its drawing, the
// figure of its suit, and its name in words as its label (not the notation, nor a symbol).
import { expect, handCards, startTichuWithBots, test } from './fixtures';

test('Tichu cards are SVG faces named in words', async ({ page }) => {
  await startTichuWithBots(page);
  const cards = handCards(page);
  await expect(cards).toHaveCount(8);
  const faces = await cards.evaluateAll((els) => els.map((e) => ({
    card: e.getAttribute('data-card') ?? '',
    figure: e.getAttribute('data-figure') ?? '',
    label: e.getAttribute('aria-label') ?? '',
    svg: e.querySelectorAll('svg.face path').length,
    img: e.querySelectorAll('img').length,
  })));
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
    // (a special card's name follows the rank and symbol drawn on it: "Dr龍 Dragon")
    en: (c: string) => ({ Mj: '1麻 Mah Jong', Dg: 'Dog犬 Dog', Ph: 'Ph鳳 Phoenix', Dr: 'Dr龍 Dragon' })[c]
      ?? `${rankWord(c[0], { J: 'Jack', Q: 'Queen', K: 'King', A: 'Ace' })} of ${{ g: 'Jade', k: 'Swords', b: 'Pagodas', r: 'Stars' }[c[1]]}`,
    ko: (c: string) => ({ Mj: '1麻 1 카드', Dg: '개犬 개', Ph: '봉鳳 봉황', Dr: '용龍 용' })[c]
      ?? `${{ g: '옥', k: '검', b: '탑', r: '별' }[c[1]]} ${rankWord(c[0], {})}`,
  };
  for (const lang of ['en', 'ko'] as const) {
    await page.getByTestId('language').selectOption(lang);
    const labels = await cards.evaluateAll((els) => els.map((e) => [e.getAttribute('data-card') ?? '', e.getAttribute('aria-label') ?? '']));
    expect(labels.length).toBe(8);
    for (const [card, label] of labels) {
      expect(label, `${lang} ${card}`).toBe(named[lang](card));
      if (!(card in figure)) expect(label).not.toMatch(/[◆⚔▲★]|\b[2-9TJQKA][gkbr]\b/);
    }
  }
  await page.getByTestId('language').selectOption('en');
  // a card drawn at its size: its face fills the card
  const box = await cards.first().locator('svg.face').boundingBox();
  expect(box!.width).toBeGreaterThan(30);
  await page.screenshot({ path: 'node_modules/.e2e-results/cards.png' });
});
