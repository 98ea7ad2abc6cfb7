// The replay of a finished match: a slider over every step with step buttons, the log following
// the current step, and the last frame showing the round's final plays and result, not an empty
// table. The round is played by the bots (auto-play on the person's seat) from a fixed deal.
import { QUICK, expect, setName, sit, test } from './fixtures';

test('the replay slider, the log following it, and the last frame', async ({ page }) => {
  test.setTimeout(90_000);
  await setName(page, 'Rep');
  const made = await page.request.post('/api/tables', { data: { game: 'doudizhu', rounds: 1, turn_timer: 0, seed: 3 } });
  expect(made.status()).toBe(201);
  const { id, invite } = await made.json();
  await page.goto(`/#/t/${id}?invite=${invite}`);
  await sit(page, 0);
  await page.getByTestId('start-fill').click();
  await expect(page.getByTestId('ddz-board')).toBeVisible();
  await page.getByTestId('autoplay').click(QUICK);
  await expect(page.getByTestId('match-over')).toBeVisible({ timeout: 60_000 });

  await page.goto(`/#/replay/${id}`);
  const slider = page.getByTestId('replay-slider');
  await expect(slider).toBeVisible();
  const total = Number(await slider.getAttribute('max'));
  expect(total).toBeGreaterThan(10);
  await expect(page.getByTestId('replay-step')).toHaveText(`Step 1 of ${total}`);
  // the slider jumps to any step; the log marks that step and keeps it in view
  await slider.fill('8');
  await expect(page.getByTestId('replay-step')).toHaveText(`Step 8 of ${total}`);
  const log = page.getByTestId('replay-log');
  const current = log.locator('li[aria-current="step"]');
  await expect(current).toHaveCount(1);
  expect(await log.locator('li').evaluateAll((els) => els.findIndex((e) => e.getAttribute('aria-current') === 'step'))).toBe(6);
  await expect(current).toHaveText(await page.getByTestId('replay-action').innerText());
  await page.getByTestId('replay-forward').click();
  await expect(page.getByTestId('replay-step')).toHaveText(`Step 9 of ${total}`);
  await expect(slider).toHaveValue('9');
  // a line of the log is a step too
  await log.locator('li').nth(2).getByRole('button').click();
  await expect(slider).toHaveValue('4');
  // the end: the log's last line is current and in view, the final plays and the result shown
  await slider.fill(String(total));
  await expect(page.getByTestId('replay-step')).toHaveText(`Step ${total} of ${total}`);
  await expect(log.locator('li').last()).toHaveAttribute('aria-current', 'step');
  await expect(log.locator('li').last()).toBeInViewport();
  await expect(page.getByTestId('replay-summary')).toBeVisible();
  await expect(page.getByTestId('replay-trick').locator('.card').first()).toBeVisible();
  await page.getByTestId('replay-back').click();
  await expect(slider).toHaveValue(String(total - 1));
});
