// A Dou Di Zhu round with the auction: one person and two bots of levels chosen per seat.
// The person bids through the UI, the landlord reveal shows the 3 kept cards, the round is
// played to its end and the summary shows.
import type { Page } from '@playwright/test';
import { QUICK, createTable, expect, setName, shown, sit, test, visibleEnabled } from './fixtures';

/** Select the cards of `text` (a Dou Di Zhu play) in the hand, one button per card. */
async function select(page: Page, cards: string): Promise<void> {
  for (const c of cards) {
    await page.getByTestId('hand').locator(`button.card[aria-label="${c}"][aria-pressed="false"]`).first().click(QUICK);
  }
}

test('a Dou Di Zhu round with the auction, the landlord reveal and the summary', async ({ page, legal }) => {
  await setName(page, 'E2E');
  await createTable(page, 'doudizhu');
  await sit(page, 0);
  // a bot of a chosen level in each empty seat: heuristic at seat 2, random at seat 3
  // each seat's choice starts at the table's bot (the lobby form's default, heuristic)
  await expect(page.getByTestId('bot-level-1')).toHaveValue('heuristic');
  await expect(page.getByTestId('bot-level-2')).toHaveValue('heuristic');
  await page.getByTestId('bot-level-1').selectOption('heuristic');
  await page.getByTestId('add-bot-1').click();
  await expect(page.locator('.seats li .who').nth(1)).toHaveText('heuristic (bot)');
  await page.getByTestId('bot-level-2').selectOption('random');
  await page.getByTestId('add-bot-2').click();
  await expect(page.locator('.seats li .who').nth(2)).toHaveText('random (bot)');
  await page.getByTestId('start').click();
  await expect(page.getByTestId('ddz-board')).toBeVisible();
  await expect(page.getByTestId('hand').locator('button.card')).toHaveCount(17);

  // the auction: the person bids the highest bid offered when asked
  const bid = page.getByTestId('bid');
  const kitty = page.getByTestId('kitty');
  await expect(bid.or(kitty).first()).toBeVisible({ timeout: 20_000 });
  let bidMade: string | null = null;
  if (await bid.count()) {
    const offered = await bid.evaluateAll((els) => els.map((e) => e.getAttribute('data-action') ?? ''));
    bidMade = offered[offered.length - 1];
    await bid.last().click();
  }
  // the reveal: the 3 kept cards face up for everyone
  await expect(kitty).toBeVisible({ timeout: 20_000 });
  await expect(kitty.locator('.card')).toHaveCount(3);
  const landlord = await page.locator('.chip').filter({ hasText: 'Landlord' }).locator('.chip-name').innerText();
  if (bidMade === 'bid 3') {
    // the highest bid ends the auction: the person is the landlord with 17 + 3 = 20 cards
    expect(landlord).toBe('E2E (you)');
    await expect(page.getByTestId('hand').locator('button.card')).toHaveCount(20);
  }

  // play: pass when allowed, otherwise the first legal play
  const deadline = Date.now() + 60_000;
  let plays = 0;
  while (!(await shown(page, 'summary'))) {
    expect(Date.now(), 'the round should end in time').toBeLessThan(deadline);
    if (!(await shown(page, 'your-turn'))) {
      await page.waitForTimeout(50);
      continue;
    }
    try {
      if (await visibleEnabled(page, 'pass')) {
        await page.getByTestId('pass').click(QUICK);
        continue;
      }
      const first = legal.actions.find((a) => a.startsWith('play '));
      if (!first) continue;
      await select(page, first.split(/\s+/)[1]);
      await expect(page.getByTestId('play')).toBeEnabled({ timeout: 2000 });
      await page.getByTestId('play').click(QUICK);
      plays++;
    } catch {
      await page.locator('.controls button.ghost').click(QUICK).catch(() => undefined);
    }
  }
  const summary = page.getByTestId('summary');
  await expect(summary.getByTestId('summary-row')).toHaveCount(3);
  await expect(summary).toContainText(`Landlord: ${landlord.replace(' (you)', '')}`);
  // Dou Di Zhu is zero-sum: the three seats' points add up to 0
  const points = (await summary.getByTestId('summary-points').allInnerTexts()).map((x) => Number(x.replace('+', '')));
  expect(points.reduce((a, b) => a + b, 0)).toBe(0);
  expect(points.every((p) => p !== 0)).toBe(true);
  expect(plays + (landlord === 'E2E (you)' ? 1 : 0)).toBeGreaterThan(0);
});
