// Accounts in Chromium: register, log out and in again, play a rated one-round Tichu match (a bot
// plays the seat), and find the result on the leaderboard, the profile and "my tables".
import { QUICK, expect, test } from './fixtures';

test('a registered player plays a rated match and sees it on the leaderboard and profile', async ({ page }) => {
  test.setTimeout(120_000);
  const name = `Ada${Date.now() % 100000}`;
  await page.goto('/#/account');
  await page.getByTestId('account-name').fill(name);
  await page.getByTestId('account-password').fill('analytical engine');
  await page.getByTestId('register').click();
  await expect(page.getByTestId('logged-in')).toContainText(name);
  // a taken name is refused with its reason
  await page.getByTestId('logout').click();
  await page.getByTestId('account-name').fill(name.toUpperCase());
  await page.getByTestId('account-password').fill('another password');
  await page.getByTestId('register').click();
  await expect(page.getByTestId('account-error')).toContainText('is taken');
  await page.getByTestId('account-password').fill('wrong password');
  await page.getByTestId('login').click();
  await expect(page.getByTestId('account-error')).toContainText('do not match');
  await page.getByTestId('account-password').fill('analytical engine');
  await page.getByTestId('login').click();
  await expect(page.getByTestId('logged-in')).toContainText(name);

  // a rated one-round Tichu table, filled with bots, a bot playing our seat
  await page.goto('/#/');
  await page.getByTestId('rated').getByRole('button', { name: 'Rated' }).click();
  await page.getByTestId('by-rounds').click();
  await page.getByTestId('rounds').fill('1');
  await page.getByTestId('timer').fill('0');
  await page.getByTestId('create').click();
  await expect(page).toHaveURL(/#\/t\//);
  await expect(page.locator('.seats li').first()).toHaveClass(/mine/); // the creator's seat
  await page.getByTestId('start-fill').click();
  await expect(page.getByTestId('tichu-board')).toBeVisible();
  await page.getByTestId('autoplay').click(QUICK);

  // the result shows on the leaderboard once the match is over
  await expect
    .poll(
      async () => {
        await page.goto('/#/leaderboard/tichu');
        await page.reload(); // the same route again: load the board afresh
        await expect(page.getByTestId('leaderboard').locator('table')).toBeVisible();
        return page.getByTestId('leader-row').filter({ hasText: name }).count();
      },
      { timeout: 90_000, intervals: [2000] },
    )
    .toBe(1);
  await page.getByTestId('leader-row').filter({ hasText: name }).getByRole('link').click();
  await expect(page.getByTestId('profile-ratings')).toContainText('Games 1');
  await expect(page.getByTestId('profile-recent').locator('li')).toHaveCount(1);
  await expect(page.getByTestId('profile-recent')).toContainText('Rated');
  await page.goto('/#/account');
  await expect(page.getByTestId('my-finished').locator('li')).toHaveCount(1);
  await page.goto('/#/history');
  // (other specs finish matches on the same server: this player's is the one that names it)
  await expect(page.getByTestId('history-result').filter({ hasText: name })).toHaveCount(1);
});
