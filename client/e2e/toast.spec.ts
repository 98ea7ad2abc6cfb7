// A refusal is shown for a while and then goes by itself, even while the table keeps changing
// (here: chat lines arriving): a late second click on "No Grand Tichu" is refused, and the toast
// that says so leaves on its own.
import { expect, startTichuWithBots, test } from './fixtures';

test('a refusal toast goes away by itself while the table moves on', async ({ page }) => {
  test.setTimeout(60_000);
  await startTichuWithBots(page, 'Tos');
  const noGrand = page.getByTestId('no-grand');
  await expect(noGrand).toBeEnabled();
  // two clicks in one go: the second reaches the server after the first was taken
  await noGrand.evaluate((b: HTMLButtonElement) => {
    b.click();
    b.click();
  });
  const toast = page.getByTestId('toast');
  await expect(toast).toHaveText(/^(That move is not allowed now|You have already decided on Grand Tichu)\.$/);
  const shownAt = Date.now();
  // the table keeps changing under the toast: a chat line every second
  const chat = page.locator('.chat input');
  let n = 0;
  while (await toast.count()) {
    expect(Date.now() - shownAt, 'the toast went by itself').toBeLessThan(25_000);
    await chat.fill(`line ${++n}`);
    await chat.press('Enter');
    await expect(page.locator('.chat li', { hasText: `line ${n}` })).toHaveCount(1);
    await page.waitForTimeout(1000);
  }
  // it stayed long enough to be read
  expect(Date.now() - shownAt).toBeGreaterThan(3000);
  expect(n, 'chat arrived while the toast was up').toBeGreaterThan(2);
});
