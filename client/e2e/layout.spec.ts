// Phone portrait: the lobby, a table's seat list with the creator's controls, and a replay fit
// the screen's width (nothing to scroll sideways).
import { createTable, expect, setName, test } from './fixtures';

test.use({ viewport: { width: 390, height: 844 } });

test('phone portrait: the lobby, the seats and a replay fit the width', async ({ page }) => {
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await setName(page, 'Pho');
  await expect(page.getByTestId('create')).toBeEnabled();
  expect(await overflow()).toBeLessThanOrEqual(0);

  const invite = await createTable(page, 'doudizhu');
  const id = /#\/t\/([^?]+)/.exec(invite)![1];
  await expect(page.getByTestId('swap-2')).toBeVisible();
  await expect(page.getByTestId('bot-level-2')).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);

  // three bots and no one seated: the round plays itself while the creator watches
  await page.getByTestId('stand').click();
  await expect(page.locator('.seats li.mine')).toHaveCount(0);
  await page.getByTestId('start-fill').click();
  await expect(page.getByTestId('match-over')).toBeVisible({ timeout: 30_000 });
  expect(await overflow()).toBeLessThanOrEqual(0);
  // the spectator's board shows all three seats' public state and no hand
  await expect(page.getByTestId('watching')).toBeVisible();
  await expect(page.locator('.board .chip')).toHaveCount(3);
  await expect(page.getByTestId('hand')).toHaveCount(0);

  await page.goto(`/#/replay/${id}`);
  await expect(page.getByTestId('replay-seat')).toHaveCount(3);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.getByTestId('replay-last').click();
  await expect(page.getByTestId('replay-summary')).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  // every hand is shown face up in a replay: at the end the winner's is empty
  const counts = await page.getByTestId('replay-hand').evaluateAll((els) => els.map((e) => e.querySelectorAll('.card').length));
  expect(counts).toHaveLength(3);
  expect(counts).toContain(0);
});
