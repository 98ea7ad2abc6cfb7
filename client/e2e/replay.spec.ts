// The replay of a finished match: a slider over every step with step buttons, the log following
// the current step, and the last frame showing the round's final plays and result, not an empty
// table. The round is played by the bots (auto-play on the person's seat) from a fixed deal.
import { QUICK, expect, seededTable, setName, sit, test } from './fixtures';

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

// A match of three Dou Di Zhu rounds played by the bots from a fixed deal: the slider crosses
// rounds, the log is the shown round's and follows the step, and the very last frame shows the
// round's final play, the winner's empty hand and the round's result.
test('a long replay: three rounds, the middle and the end', async ({ page }) => {
  test.setTimeout(180_000);
  await setName(page, 'Long');
  const { id } = await seededTable(page, { game: 'doudizhu', seed: 3, rounds: 3 });
  await sit(page, 0);
  await page.getByTestId('start-fill').click();
  await expect(page.getByTestId('ddz-board')).toBeVisible();
  await page.getByTestId('autoplay').click(QUICK);
  // each round's summary is closed as it comes, until the match is over
  const over = page.getByTestId('match-over');
  await expect(async () => {
    const summary = page.getByTestId('summary');
    if (await summary.isVisible()) await summary.getByRole('button').click({ timeout: 1000 });
    await expect(over).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 150_000 });

  // the replay as the server gives it: the steps of each round (its deal and one per action)
  const answer = await page.request.get(`/api/tables/${id}/replay`);
  expect(answer.status()).toBe(200);
  type Frame = { seat: number | null; action: string | null; hands: string[]; top: { cards: string } | null };
  const data = (await answer.json()) as { rounds: { frames: Frame[]; summary: { points: number[]; scores: number[] } }[] };
  expect(data.rounds).toHaveLength(3);
  const sizes = data.rounds.map((r) => r.frames.length);
  const total = sizes[0] + sizes[1] + sizes[2];

  await page.goto(`/#/replay/${id}`);
  const slider = page.getByTestId('replay-slider');
  await expect(slider).toHaveAttribute('max', String(total));
  const step = page.getByTestId('replay-step');
  const log = page.getByTestId('replay-log');
  const current = log.locator('li[aria-current="step"]');
  const replay = page.getByTestId('replay');

  // the middle: a step halfway through the second round
  const frame = Math.ceil(sizes[1] / 2);
  const mid = sizes[0] + frame + 1;
  await slider.fill(String(mid));
  await expect(step).toHaveText(`Step ${mid} of ${total}`);
  await expect(replay.getByText('Round 2', { exact: false }).first()).toBeVisible();
  // the log is the second round's (one line per action after the deal), marked at this step
  await expect(log.locator('li')).toHaveCount(sizes[1] - 1);
  await expect(current).toHaveCount(1);
  expect(await log.locator('li').evaluateAll((els) => els.findIndex((e) => e.getAttribute('aria-current') === 'step'))).toBe(frame - 1);
  await expect(current).toHaveText(await page.getByTestId('replay-action').innerText());
  await expect(current).toBeInViewport();
  await expect(page.getByTestId('replay-summary')).toHaveCount(0);

  // the end: the third round's last step, its last line marked, its final play and result shown
  await slider.fill(String(total));
  await expect(step).toHaveText(`Step ${total} of ${total}`);
  await expect(replay.getByText('Round 3', { exact: false }).first()).toBeVisible();
  await expect(log.locator('li')).toHaveCount(sizes[2] - 1);
  await expect(log.locator('li').last()).toHaveAttribute('aria-current', 'step');
  await expect(log.locator('li').last()).toBeInViewport();
  const last = data.rounds[2].frames[sizes[2] - 1];
  // the round ends on the winner's last play: it is on the table, and the winner's hand is empty
  expect(last.action).toMatch(/^play /);
  const played = last.action!.slice('play '.length).split(' ')[0];
  const shown = await page.getByTestId('replay-trick').locator('.card').evaluateAll((els) => els.map((e) => e.getAttribute('data-card')).join(''));
  expect([...shown].sort().join('')).toBe([...played].sort().join(''));
  await expect(page.getByTestId('replay-hand').nth(last.seat!).locator('.card')).toHaveCount(0);
  const { points, scores } = data.rounds[2].summary;
  await expect(page.getByTestId('replay-summary')).toContainText(`Points ${points.join(' : ')}`);
  await expect(page.getByTestId('replay-summary')).toContainText(`Total ${scores.join(' : ')}`);
});
