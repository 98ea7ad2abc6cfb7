// The table answers the keyboard: a help overlay lists the shortcuts, P passes, T asks before it
// calls Tichu, and the Grand Tichu prompt answers "No" by default (as BrettspielWelt does).
import { QUICK, decide, expect, handCards, offers, startTichuWithBots, test } from './fixtures';

test('shortcuts, the Tichu confirmation and the Grand Tichu default', async ({ page, legal }) => {
  test.setTimeout(120_000);
  await startTichuWithBots(page, 'Keys');
  await expect(handCards(page)).toHaveCount(8);
  // "No" is the primary answer to Grand Tichu
  await expect(page.getByTestId('no-grand')).toHaveClass(/primary/);
  await expect(page.getByTestId('grand')).not.toHaveClass(/primary/);

  // ? shows the shortcuts, in words; Esc hides them
  await page.locator('body').press('?');
  const help = page.getByTestId('shortcuts');
  await expect(help).toBeVisible();
  await expect(help.locator('dd')).toHaveText([
    'Play the selected cards', 'Pass', 'Clear the selection', 'Select your lowest bomb (again: play it)',
    'Call Tichu (asks first)', 'Show or hide these shortcuts',
  ]);
  await page.locator('body').press('Escape');
  await expect(help).toBeHidden();

  // through the exchange, until Tichu may be called: T asks first, and Cancel calls nothing
  const deadline = Date.now() + 90_000;
  while (!(await page.getByTestId('tichu').isVisible())) {
    expect(Date.now(), 'Tichu became callable').toBeLessThan(deadline);
    const o = await offers(page);
    if (!(o['no-grand'] || o.exchange) || !(await decide(page, legal, o).catch(() => false))) await page.waitForTimeout(100);
  }
  await page.locator('body').press('t');
  const ask = page.getByTestId('tichu-ask');
  await expect(ask).toContainText('You win 100 if you go out first');
  await ask.getByRole('button', { name: 'Cancel' }).click(QUICK);
  await expect(ask).toBeHidden();
  expect(legal.actions).toContain('tichu'); // not called

  // P passes on this seat's turn over a live trick
  for (;;) {
    const o = await offers(page);
    if (o.pass && o['your-turn']) break;
    expect(Date.now(), 'the seat could pass').toBeLessThan(deadline);
    // leading (a play gets a trick going), a wish, a Dragon gift: whatever the UI asks
    if (!(await decide(page, legal, o, 'play').catch(() => false))) await page.waitForTimeout(100);
  }
  const passesBefore = await page.getByTestId('log').locator('li', { hasText: 'Keys passes' }).count();
  await page.locator('body').press('p');
  // the log tells the pass, in words
  await expect
    .poll(() => page.getByTestId('log').locator('li', { hasText: 'Keys passes' }).count(), { timeout: 5000 })
    .toBeGreaterThan(passesBefore);
});
