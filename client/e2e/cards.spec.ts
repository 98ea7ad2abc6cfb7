// The card faces are drawn by the client as SVG: every card of the hand has its drawing, the
// figure of its suit, and its name in words as its label (not the notation).
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
  // a card drawn at its size: its face fills the card
  const box = await cards.first().locator('svg.face').boundingBox();
  expect(box!.width).toBeGreaterThan(30);
  await page.screenshot({ path: 'node_modules/.e2e-results/cards.png' });
});
