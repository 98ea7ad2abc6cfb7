// Auto-play (托管): a person lets a bot play the seat, watches it play, and takes the seat back.
import { QUICK, expect, handCards, startTichuWithBots, test } from './fixtures';

test('a bot plays the seat while auto-play is on, and the person takes it back', async ({ page }) => {
  test.setTimeout(60_000);
  await startTichuWithBots(page, 'Auto');
  await expect(handCards(page)).toHaveCount(8);
  const toggle = page.getByTestId('autoplay');
  await expect(toggle).toHaveText('Let a bot play for me');
  await toggle.click(QUICK);
  await expect(toggle).toHaveText('Play myself again');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  // the bot decides for the seat: its Grand Tichu answer and exchange, then plays (the hand shrinks below 14)
  await expect.poll(async () => handCards(page).count(), { timeout: 30_000 }).toBeLessThan(14);
  await expect(page.getByTestId('log').locator('li', { hasText: /^Auto / }).first()).toBeVisible();
  await toggle.click(QUICK);
  await expect(toggle).toHaveText('Let a bot play for me');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
});
