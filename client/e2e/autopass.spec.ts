// Dou Di Zhu's auto-pass setting: with it on, the seat passes by itself on its turn when nothing
// in its hand beats the table (the page never presses Pass), and still plays when it can.
import { QUICK, expect, seededTable, setName, shown, sit, test } from './fixtures';

test('with auto-pass on, the seat passes by itself when nothing beats the table', async ({ page, legal }) => {
  test.setTimeout(90_000);
  await setName(page, 'Aut');
  await seededTable(page, { game: 'doudizhu', seed: 1 });
  await sit(page, 0);
  await page.getByTestId('start-fill').click();
  await expect(page.getByTestId('ddz-board')).toBeVisible();
  // seed 1: this seat opens the auction; bidding 3 makes it the landlord (no pass of its own in the log)
  await page.getByTestId('bid').last().click();
  await expect(page.getByTestId('hand').locator('button.card')).toHaveCount(20);
  const autoPass = page.getByTestId('auto-pass');
  await expect(autoPass).not.toBeChecked();
  await autoPass.check();

  const passes = page.getByTestId('log').locator('li', { hasText: /^Aut passes$/ });
  const deadline = Date.now() + 70_000;
  // play the first legal play whenever there is one; when pass is all the rules allow, wait for the
  // seat to pass by itself
  while ((await passes.count()) === 0) {
    expect(Date.now(), 'the seat passed by itself before the round ended').toBeLessThan(deadline);
    expect(await shown(page, 'summary'), 'the round is still on').toBe(false);
    if (!(await shown(page, 'your-turn'))) {
      await page.waitForTimeout(50);
      continue;
    }
    const actions = [...legal.actions];
    const first = actions.find((a) => a.startsWith('play '));
    if (!first) {
      await expect(passes).toHaveCount(1, { timeout: 10_000 });
      break;
    }
    try {
      for (const c of first.split(/\s+/)[1]) {
        await page.getByTestId('hand').locator(`button.card[data-card="${c}"][aria-pressed="false"]`).first().click(QUICK);
      }
      await expect(page.getByTestId('play')).toBeEnabled({ timeout: 2000 });
      await page.getByTestId('play').click(QUICK);
    } catch {
      await page.getByTestId('clear').click(QUICK).catch(() => undefined);
    }
  }
  // (this page never pressed Pass, there is no turn timer, and the seat is not played by a bot)
  await expect(page.getByTestId('autoplay')).toHaveAttribute('aria-pressed', 'false');
  // the setting is kept for the next table
  expect(await page.evaluate(() => localStorage.getItem('pagoda.ddzAutoPass'))).toBe('1');
});
