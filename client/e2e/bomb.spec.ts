// A person bombs out of turn with the Bomb button. The table is dealt from a chosen seed
// (POST /api/tables `seed`): seed 14 gives the first seat four Kings once all 14 cards are
// dealt. A second person sits in the next seat and, when it is their turn over a live trick,
// holds the play up while the first may bomb, so the bomb comes during someone else's turn.
import type { Page } from '@playwright/test';
import { QUICK, decide, expect, handCards, seededTable, setName, shown, test, trackLegal } from './fixtures';

const SEED = 14;
const BOMB = ['Kg', 'Kk', 'Kb', 'Kr'];

/** Legal bombs of the page's seat: plays of four cards of one rank (the four Kings here). */
function bombs(legal: { actions: string[] }): string[] {
  return legal.actions.filter((a) => BOMB.every((c) => a.split(/\s+/).includes(c)));
}

test('a person bombs out of turn with the Bomb button', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const contexts = await Promise.all([0, 1].map(() => browser.newContext({ baseURL })));
  const [ann, ben] = await Promise.all(contexts.map((c) => c.newPage()));
  const legal = [trackLegal(ann), trackLegal(ben)];
  await setName(ann, 'Ann');
  await setName(ben, 'Ben');

  // the seed is an option of the creation request: create through the API with Ann's cookie
  const { id, url } = await seededTable(ann, { game: 'tichu', seed: SEED });
  await ann.locator('.seats li').nth(0).getByTestId('sit').click();
  await expect(ann.locator('.seats li').nth(0)).toHaveClass(/mine/);
  await ben.goto(url);
  await ben.locator('.seats li').nth(1).getByTestId('sit').click();
  await expect(ben.locator('.seats li').nth(1)).toHaveClass(/mine/);
  await ann.getByTestId('start-fill').click();
  await expect(ann.getByTestId('tichu-board')).toBeVisible();

  // Grand Tichu: no; the exchange: Ann keeps the Kings
  const bomb = ann.getByTestId('bomb');
  const deadline = Date.now() + 90_000;
  let annExchanged = false;
  // Ben to move over a live trick: the table waits for him, and Ann may bomb if the server
  // lists her bomb (it is not offered over a bomb or before the play starts). Checked before
  // every move of Ben's, since he answers Ann's plays at once.
  const bombWindow = async (): Promise<boolean> => {
    if (!annExchanged || !(await shown(ben, 'your-turn')) || !(await ben.locator('.trick .play').count())) return false;
    const until = Date.now() + 1000;
    while (Date.now() < until && !bombs(legal[0]).length) await ann.waitForTimeout(50);
    return bombs(legal[0]).length > 0;
  };
  for (;;) {
    expect(Date.now(), 'the bomb should come in time').toBeLessThan(deadline);
    const yourTurn = await shown(ann, 'your-turn');
    if (await bombWindow()) break;
    if (!annExchanged && (await shown(ann, 'exchange'))) {
      const dealt = await handCards(ann).evaluateAll((els) => els.map((e) => e.getAttribute('data-card') ?? ''));
      expect(dealt, `seed ${SEED} deals the first seat the four Kings`).toEqual(expect.arrayContaining(BOMB));
      const keep = dealt.filter((c) => !BOMB.includes(c));
      for (const [slot, card] of [['left', keep[0]], ['partner', keep[1]], ['right', keep[2]]]) {
        await ann.getByTestId('hand').locator(`button.card[data-card="${card}"]`).click();
        await ann.getByTestId(`slot-${slot}`).click();
      }
      await ann.getByTestId('exchange-confirm').click();
      await expect(ann.getByTestId('exchange')).toBeHidden();
      annExchanged = true;
      continue;
    }
    let moved = false;
    if (!annExchanged || yourTurn) moved = await decideKeeping(ann, legal[0]).catch(() => false);
    if (await bombWindow()) break;
    if (!(await shown(ben, 'summary'))) moved = (await decide(ben, legal[1]).catch(() => false)) || moved;
    expect(await shown(ann, 'summary'), 'the round ended before a bomb').toBe(false);
    if (!moved) await ann.waitForTimeout(50);
  }

  // the Bomb button, visible since Ann holds a bomb: the first press picks the bomb's cards,
  // the second plays them, though it is not Ann's turn
  await expect(bomb).toBeVisible();
  await expect(ann.getByTestId('your-turn')).toHaveCount(0);
  await bomb.click();
  for (const c of BOMB) await expect(ann.getByTestId('hand').locator(`button.card[data-card="${c}"]`)).toHaveAttribute('aria-pressed', 'true');
  await bomb.click();
  // the Kings leave the hand and lie on the trick as Ann's play, for Ben too
  for (const c of BOMB) await expect(ann.getByTestId('hand').locator(`button.card[data-card="${c}"]`)).toHaveCount(0);
  const onBen = ben.locator('.trick .play').filter({ hasText: 'Ann' }).last();
  await expect(onBen.locator('.card')).toHaveCount(4);
  expect((await onBen.locator('.card').evaluateAll((els) => els.map((e) => e.getAttribute('data-card')))).sort()).toEqual([...BOMB].sort());
  await expect(ben.locator('.log li').filter({ hasText: /^Ann plays a bomb: four Kings \(/ })).toHaveCount(1);
  // the bomb stands out on the table, named
  await expect(onBen).toHaveClass(/bomb/);
  await expect(onBen.getByTestId('combo')).toHaveText('a bomb: four Kings');

  // the table is still live: its replay (with every hand) is refused, and no hand is shown
  await ben.goto(`/#/replay/${id}`);
  await expect(ben.getByTestId('replay-error')).toContainText('409: the record is served once the match is over');
  await expect(ben.getByTestId('replay-hand')).toHaveCount(0);

  for (const c of contexts) await c.close();
});

/** Ann's own turns: like `decide`, but the lead never breaks the Kings. */
async function decideKeeping(page: Page, legal: { actions: string[] }): Promise<boolean> {
  if (await shown(page, 'your-turn')) {
    if (!(await page.getByTestId('pass').isEnabled())) {
      const lead = legal.actions.find((a) => a.startsWith('play ') && !BOMB.some((c) => a.split(/\s+/).includes(c)) && !/ (as|wish) /.test(a));
      if (!lead) return decide(page, legal); // no play to lead: the Dragon gift, a wish, …
      for (const c of lead.split(/\s+/).slice(1)) await page.getByTestId('hand').locator(`button.card[data-card="${c}"]`).click(QUICK);
      const plays = page.getByTestId('play');
      await expect(plays).toBeEnabled({ timeout: 2000 });
      await plays.click(QUICK);
      // a Mah Jong lead asks for a wish
      const none = page.getByTestId('no-wish');
      if (await none.count()) await none.first().click(QUICK);
      return true;
    }
  }
  return decide(page, legal);
}
