// Accessibility: axe-core finds no serious or critical violation on the lobby, a table in play,
// the round summary, the match end, the replay (its first and last frames) and the history, in
// English, Korean and Japanese.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { QUICK, expect, handCards, startTichuWithBots, test } from './fixtures';

async function serious(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')})`);
}

for (const lang of ['en', 'ko', 'ja'] as const) {
  test(`no serious accessibility violation in ${lang}`, async ({ page }) => {
    test.setTimeout(150_000);
    await page.goto('/#/');
    await page.getByTestId('language').selectOption(lang);
    await expect(page.getByTestId('create')).toBeEnabled();
    expect(await serious(page), 'the lobby').toEqual([]);

    await startTichuWithBots(page, 'Axe');
    await expect(handCards(page)).toHaveCount(8);
    expect(await serious(page), 'a table').toEqual([]);

    // the one round played by a bot for the seat: its summary, the match end and the replay
    await page.getByTestId('autoplay').click(QUICK);
    const summary = page.getByTestId('summary');
    await expect(summary).toBeVisible({ timeout: 90_000 });
    await expect(summary.getByTestId('explain-line').first()).toBeVisible();
    expect(await serious(page), 'the round summary').toEqual([]);
    await summary.getByRole('button').click();
    await expect(page.getByTestId('match-over')).toBeVisible();
    expect(await serious(page), 'the match end').toEqual([]);
    await page.getByTestId('final-replay').click();
    await expect(page.getByTestId('replay-seat')).toHaveCount(4);
    expect(await serious(page), 'the replay').toEqual([]);
    await page.getByTestId('replay-last').click();
    await expect(page.getByTestId('replay-summary')).toBeVisible();
    expect(await serious(page), 'the replay’s last frame').toEqual([]);

    // a Dou Di Zhu table: the person bids 3 and leads, with the card counter shown
    const made = await page.request.post('/api/tables', { data: { game: 'doudizhu', rounds: 1, turn_timer: 0, seed: 3 } });
    expect(made.status()).toBe(201);
    const { id, invite } = await made.json();
    await page.goto(`/#/t/${id}?invite=${invite}`);
    await page.locator('.seats li').nth(0).getByTestId('sit').click();
    await page.getByTestId('start-fill').click();
    await expect(page.getByTestId('ddz-board')).toBeVisible();
    expect(await serious(page), 'a Dou Di Zhu table').toEqual([]);

    await page.goto('/#/history');
    await expect(page.locator('main')).toBeVisible();
    expect(await serious(page), 'the history').toEqual([]);
  });
}
