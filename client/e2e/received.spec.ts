// The exchange's received cards stay in view, each with who gave it, until the person's own
// first play: a bot's lead does not take them away (seed 1: a bot holds the Mah Jong and leads).
import { QUICK, decide, expect, handCards, handNames, offers, seededTable, setName, sit, test } from './fixtures';

test('the received cards and their givers stay shown through a bot’s lead until the first own play', async ({ page, legal }) => {
  test.setTimeout(90_000);
  await setName(page, 'Rae');
  await seededTable(page, { game: 'tichu', seed: 1 });
  await sit(page, 0);
  await page.getByTestId('start-fill').click();
  await page.getByTestId('no-grand').click();
  // give three cards other than the Mah Jong (so that the seat holding it is the same as dealt)
  await expect(page.getByTestId('exchange')).toBeVisible();
  const give = (await handNames(page)).filter((c) => c !== 'Mj').slice(0, 3);
  for (const [slot, card] of [['left', give[0]], ['partner', give[1]], ['right', give[2]]]) {
    await page.getByTestId('hand').locator(`button.card[data-card="${card}"]`).click();
    await page.getByTestId(`slot-${slot}`).click();
  }
  await page.getByTestId('exchange-confirm').click();
  await expect(handCards(page)).toHaveCount(14);
  expect(await handNames(page), 'seed 1 leaves the Mah Jong with a bot').not.toContain('Mj');

  // a bot leads: its play is on the table and in the log, and the received block is still there
  const log = page.getByTestId('log');
  await expect(log.locator('li', { hasText: /^Basic bot #\d plays / }).first()).toBeVisible({ timeout: 20_000 });
  const received = page.getByTestId('received');
  await expect(received).toBeVisible();
  const gifts = received.getByTestId('gift');
  await expect(gifts).toHaveCount(3);
  // one card from each other seat: left (#4), partner (#3), right (#2), each card now in the hand
  await expect(gifts).toHaveText([/from Basic bot #4$/, /from Basic bot #3$/, /from Basic bot #2$/]);
  const cards = await gifts.locator('.card').evaluateAll((els) => els.map((e) => e.getAttribute('data-card') ?? ''));
  const hand = await handNames(page);
  for (const c of cards) expect(hand).toContain(c);
  // the gifts are said in words too, in the page's language
  await page.getByTestId('language').selectOption('ko');
  await expect(gifts).toHaveText([/기본 봇 #4/, /기본 봇 #3/, /기본 봇 #2/]);
  await page.getByTestId('language').selectOption('en');

  // they stay while this seat passes, and go with its first play (the hand and the block read in
  // one look: the play this loop made may land between two separate reads)
  const look = () =>
    page.evaluate(() => ({
      hand: document.querySelectorAll('[data-testid="hand"] button.card').length,
      received: document.querySelectorAll('[data-testid="received"]').length,
    }));
  const deadline = Date.now() + 60_000;
  for (let seen = await look(); seen.hand === 14; seen = await look()) {
    expect(Date.now(), 'the seat played a first card').toBeLessThan(deadline);
    expect(seen.received, 'shown while the hand is whole').toBe(1);
    const o = await offers(page);
    if (o.summary) break;
    if (!(await decide(page, legal, o, 'play').catch(() => false))) await page.waitForTimeout(50);
  }
  await expect(handCards(page)).not.toHaveCount(14, QUICK);
  await expect(received).toHaveCount(0);
});
