// Screenshot comparisons: a Tichu and a Dou Di Zhu table at a fixed deal (a seeded table, the
// bots' choices seeded from it, no turn timer), in English and Korean, at desktop and phone
// sizes, and in Japanese at desktop size (its Tichu deal holds the four special cards and their
// emblems), animations off, taken where the table waits on the person (every bot has answered);
// the lobby with one waiting table; and the round summary, the history and the replay's last
// frame of a round the bots play at a fixed deal (desktop, English); so a layout regression
// fails. At phone size nothing may scroll sideways. Baselines: e2e/screens.spec.ts-snapshots
// (update with `npx playwright test e2e/screens.spec.ts -u`).
import type { Page } from '@playwright/test';
import { QUICK, expect, seededTable, sit, test } from './fixtures';

test.use({ reducedMotion: 'reduce' });

const PHONE = { width: 390, height: 844 };
const SHOT = { animations: 'disabled', maxDiffPixelRatio: 0.01 } as const;

type Lang = 'en' | 'ko' | 'ja';

async function asMina(page: Page, lang: Lang): Promise<void> {
  await page.addInitScript((l) => {
    localStorage.setItem('pagoda.lang', l);
    localStorage.setItem('pagoda.name', 'Mina');
    localStorage.setItem('pagoda.sounds', '0');
  }, lang);
  // the guest is made by the page's first /api/me: a table created before it would be another guest's
  await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/me')), page.goto('/#/')]);
}

async function seatedAt(page: Page, lang: Lang, game: 'tichu' | 'doudizhu', seed: number): Promise<string> {
  await asMina(page, lang);
  const { id } = await seededTable(page, { game, seed });
  await sit(page, 0);
  await page.getByTestId('start-fill').click();
  return id;
}

/** How far the page scrolls sideways (0 or less: it fits the width). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

// seed 2796 deals the first seat the four special cards among its first eight
async function tichuShot(page: Page, lang: Lang, name: string, seed = 7): Promise<void> {
  await seatedAt(page, lang, 'tichu', seed);
  const board = page.getByTestId('tichu-board');
  await expect(board.getByTestId('hand').locator('.card')).toHaveCount(8);
  // the three bots have answered Grand Tichu; the table waits on the person
  await expect(board.getByTestId('log').locator('li')).toHaveCount(3);
  await expect(board.getByTestId('no-grand')).toBeEnabled();
  await expect(board).toHaveScreenshot(name, SHOT);
}

async function doudizhuShot(page: Page, lang: Lang, name: string): Promise<void> {
  // seed 1: the person's seat opens the auction, so the table waits on it at once
  await seatedAt(page, lang, 'doudizhu', 1);
  const board = page.getByTestId('ddz-board');
  await expect(board.getByTestId('hand').locator('.card')).toHaveCount(17);
  await expect(board.getByTestId('bid')).toHaveCount(3);
  await expect(board).toHaveScreenshot(name, SHOT);
}

/** The lobby listing one waiting Tichu table of Mina's (her seat and a bot's taken). */
async function lobbyShot(page: Page, lang: 'en' | 'ko', name: string): Promise<void> {
  await asMina(page, lang);
  const made = await page.request.post('/api/tables', { data: { game: 'tichu', preset: 'standard', turn_timer: 0, seed: 5, bot: 'heuristic' } });
  expect(made.status()).toBe(201);
  const { id, invite } = await made.json();
  await page.goto(`/#/t/${id}?invite=${invite}&sit=any`);
  await expect(page.locator('.seats li').first()).toHaveClass(/mine/);
  await page.getByTestId('add-bot-1').click();
  await expect(page.locator('.seats li').nth(1).getByTestId('remove-bot-1')).toBeVisible();
  // the list as the server gives it, this table alone (other tests' tables come and go)
  await page.route('**/api/tables', async (route) => {
    const real = await route.fetch();
    const body = (await real.json()) as { tables: { id: string }[] };
    await route.fulfill({ response: real, json: { tables: body.tables.filter((t) => t.id === id) } });
  });
  await page.goto('/#/');
  await expect(page.getByTestId('lobby-table')).toHaveCount(1);
  await expect(page.getByTestId('my-tables').locator('li')).toHaveCount(1);
  await expect(page.getByTestId('bot-about')).toBeVisible();
  await expect(page.locator('main')).toHaveScreenshot(name, SHOT);
  // the lobby keeps polling the list: a fetch in flight when the page closes must not fail the next test
  await page.unrouteAll({ behavior: 'ignoreErrors' });
}

for (const lang of ['en', 'ko'] as const) {
  test(`a Tichu table at a fixed deal (${lang})`, async ({ page }) => {
    await tichuShot(page, lang, `tichu-${lang}.png`);
  });

  test(`a Dou Di Zhu table at a fixed deal (${lang})`, async ({ page }) => {
    await doudizhuShot(page, lang, `doudizhu-${lang}.png`);
  });

  test(`the lobby (${lang})`, async ({ page }) => {
    await lobbyShot(page, lang, `lobby-${lang}.png`);
  });

  test.describe(`at phone size (${lang})`, () => {
    test.use({ viewport: PHONE });

    test(`a Tichu table at a fixed deal, phone (${lang})`, async ({ page }) => {
      await tichuShot(page, lang, `tichu-phone-${lang}.png`);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
    });

    test(`a Dou Di Zhu table at a fixed deal, phone (${lang})`, async ({ page }) => {
      await doudizhuShot(page, lang, `doudizhu-phone-${lang}.png`);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
    });

    test(`the lobby, phone (${lang})`, async ({ page }) => {
      await lobbyShot(page, lang, `lobby-phone-${lang}.png`);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
    });
  });
}

test('a Tichu table at a fixed deal with the special cards (ja)', async ({ page }) => {
  await tichuShot(page, 'ja', 'tichu-ja.png', 2796);
});

test('a Dou Di Zhu table at a fixed deal (ja)', async ({ page }) => {
  await doudizhuShot(page, 'ja', 'doudizhu-ja.png');
});

test.describe('after a round', () => {
  // the history's dates are shown in the page's time zone
  test.use({ timezoneId: 'UTC' });

  test('the round summary, the history and the replay (en)', async ({ page }) => {
    test.setTimeout(120_000);
    // seed 9: the bots play the same round every time (card points counted, a Tichu won)
    const id = await seatedAt(page, 'en', 'tichu', 9);
    await expect(page.getByTestId('tichu-board')).toBeVisible();
    await page.getByTestId('autoplay').click(QUICK);
    const summary = page.getByTestId('summary');
    await expect(summary).toBeVisible({ timeout: 90_000 });
    await expect(summary.getByTestId('explain-line')).toHaveCount(3);
    await expect(summary.locator('.panel')).toHaveScreenshot('summary-en.png', SHOT);
    await summary.getByRole('button').click();
    await expect(page.getByTestId('match-over')).toBeVisible();

    // the history: this table alone, at a fixed time (it shows when the table was made)
    await page.route('**/api/history*', async (route) => {
      const real = await route.fetch();
      const body = (await real.json()) as { tables: { id: string; created: number | string }[] };
      const tables = body.tables.filter((t) => t.id === id).map((t) => ({ ...t, created: 1767268800 }));
      await route.fulfill({ response: real, json: { ...body, tables } });
    });
    await page.goto('/#/history');
    await expect(page.getByTestId('history-row')).toHaveCount(1);
    await expect(page.getByTestId('history-result')).toBeVisible();
    await expect(page.getByTestId('history')).toHaveScreenshot('history-en.png', SHOT);
    await page.unrouteAll({ behavior: 'ignoreErrors' });

    // the replay's last frame: the final plays, every hand, the round's result and the log's end
    await page.goto(`/#/replay/${id}`);
    await page.getByTestId('replay-last').click();
    await expect(page.getByTestId('replay-summary')).toBeVisible();
    await expect(page.getByTestId('replay-log').locator('li').last()).toHaveAttribute('aria-current', 'step');
    // the round ended on Basic bot #4's Dog: the last frame shows it, not the trick before it
    // (too few pixels for the screenshot's tolerance to tell)
    await expect(page.getByTestId('replay-log').locator('li').last()).toHaveText('Basic bot #4 plays the Dog');
    const final = page.getByTestId('replay-trick').locator('.play');
    await expect(final).toHaveCount(1);
    await expect(final.locator('.who')).toHaveText('Basic bot #4');
    await expect(final.locator('[data-card]')).toHaveAttribute('data-card', 'Dg');
    await expect(page.getByTestId('replay')).toHaveScreenshot('replay-en.png', SHOT);
  });
});
