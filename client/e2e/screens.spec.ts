// Screenshot comparisons: a Tichu and a Dou Di Zhu table at a fixed deal (a seeded table, the
// bots' choices seeded from it, no turn timer), in English and Korean, animations off, taken
// where the table waits on the person (every bot has answered), so a layout regression fails.
// Baselines: e2e/screens.spec.ts-snapshots (update with `npx playwright test e2e/screens.spec.ts -u`).
import type { Page } from '@playwright/test';
import { expect, sit, test } from './fixtures';

test.use({ reducedMotion: 'reduce' });

async function seatedAt(page: Page, lang: 'en' | 'ko', game: 'tichu' | 'doudizhu', seed: number): Promise<void> {
  await page.addInitScript((l) => {
    localStorage.setItem('pagoda.lang', l);
    localStorage.setItem('pagoda.name', 'Mina');
    localStorage.setItem('pagoda.sounds', '0');
  }, lang);
  await page.goto('/#/');
  const made = await page.request.post('/api/tables', { data: { game, rounds: 1, turn_timer: 0, seed } });
  expect(made.status()).toBe(201);
  const { id, invite } = await made.json();
  await page.goto(`/#/t/${id}?invite=${invite}`);
  await sit(page, 0);
  await page.getByTestId('start-fill').click();
}

for (const lang of ['en', 'ko'] as const) {
  test(`a Tichu table at a fixed deal (${lang})`, async ({ page }) => {
    await seatedAt(page, lang, 'tichu', 7);
    const board = page.getByTestId('tichu-board');
    await expect(board.getByTestId('hand').locator('.card')).toHaveCount(8);
    // the three bots have answered Grand Tichu; the table waits on the person
    await expect(board.getByTestId('log').locator('li')).toHaveCount(3);
    await expect(board.getByTestId('no-grand')).toBeEnabled();
    await expect(board).toHaveScreenshot(`tichu-${lang}.png`, { animations: 'disabled', maxDiffPixelRatio: 0.01 });
  });

  test(`a Dou Di Zhu table at a fixed deal (${lang})`, async ({ page }) => {
    // seed 1: the person's seat opens the auction, so the table waits on it at once
    await seatedAt(page, lang, 'doudizhu', 1);
    const board = page.getByTestId('ddz-board');
    await expect(board.getByTestId('hand').locator('.card')).toHaveCount(17);
    await expect(board.getByTestId('bid')).toHaveCount(3);
    await expect(board).toHaveScreenshot(`doudizhu-${lang}.png`, { animations: 'disabled', maxDiffPixelRatio: 0.01 });
  });
}
