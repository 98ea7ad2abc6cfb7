// A selection the rules refuse is explained in words before Play is pressed: the client asks the
// server `why` and shows the rules core's reason, translated, with card faces (never notation).
import { QUICK, decide, expect, handCards, handNames, offers, startTichuWithBots, test } from './fixtures';

const SPECIALS = new Set(['Mj', 'Dg', 'Ph', 'Dr']);
const NOTATION = /\b(?:[2-9TJQKA][gkbr]|Mj|Dg|Ph|Dr)\b/;

test('an illegal selection says why, in words', async ({ page, legal }) => {
  test.setTimeout(120_000);
  await startTichuWithBots(page, 'Why');
  await expect(handCards(page)).toHaveCount(8);
  const deadline = Date.now() + 90_000;
  // no Grand Tichu, the exchange, then passes until it is this seat's turn in play
  for (;;) {
    expect(Date.now(), 'the seat got a turn in play').toBeLessThan(deadline);
    const o = await offers(page);
    if (o['your-turn'] && !o['no-grand'] && !o.exchange && !o['give-dragon'] && !o.picker) break;
    // (a control may be redrawn under the click as the bots move: look again)
    if (!(await decide(page, legal, o).catch(() => false))) await page.waitForTimeout(100);
  }
  // two plain cards of different ranks are never a combination
  const hand = (await handNames(page)).filter((c) => !SPECIALS.has(c));
  const low = hand[0];
  const high = hand.find((c) => c[0] !== low[0]);
  expect(high, 'the hand holds two ranks').toBeDefined();
  for (const c of [low, high as string]) await page.getByTestId('hand').locator(`button.card[data-card="${c}"]`).click(QUICK);
  await expect(page.getByTestId('play')).toBeDisabled();
  const why = page.getByTestId('why');
  await expect(why).toContainText('is not a combination');
  expect(await why.textContent()).not.toMatch(NOTATION);
  // in Japanese too, once the language changes
  await page.getByTestId('language').selectOption('ja');
  await expect(why).toContainText('役になりません');
  expect(await why.textContent()).not.toMatch(NOTATION);
});
