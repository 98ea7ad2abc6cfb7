// Reloading the page in the middle of a round takes the same seat back with the same hand.
import { exchange, expect, handCards, handNames, startTichuWithBots, test } from './fixtures';

test('a reload mid-round resumes the seat', async ({ page }) => {
  await startTichuWithBots(page);

  // Grand Tichu: the first eight cards wait for this seat's answer
  await expect(handCards(page)).toHaveCount(8);
  const first8 = await handNames(page);
  await page.reload();
  await expect(handCards(page)).toHaveCount(8);
  expect(await handNames(page)).toEqual(first8);
  await page.getByTestId('no-grand').click();

  await expect(page.getByTestId('exchange')).toBeVisible();
  await expect(handCards(page)).toHaveCount(14);
  const full = await handNames(page);
  for (const c of first8) expect(full).toContain(c);
  await exchange(page);

  // play: the table waits for this seat's turn (no turn timer)
  await expect(page.getByTestId('your-turn')).toBeVisible({ timeout: 30_000 });
  const before = await handNames(page);
  const url = page.url();
  await page.reload();
  await expect(page.getByTestId('your-turn')).toBeVisible();
  expect(page.url()).toBe(url);
  await expect(handCards(page)).toHaveCount(before.length);
  expect(await handNames(page)).toEqual(before);
  await expect(page.locator('.me .chip-name').first()).toHaveText('E2E (you)');
});
