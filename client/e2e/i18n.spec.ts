// The Korean and Japanese catalogues reach the screen, in the lobby and at a table.
import { expect, test } from './fixtures';

const CASES = [
  { lang: 'ko', name: '한국어', create: '테이블 만들기', fill: '빈 자리를 봇으로 채우고 시작', game: '티츄', said: / 님(이|은) / },
  { lang: 'ja', name: '日本語', create: 'テーブルを作る', fill: '空席をボットで埋めて開始', game: 'ティチュー', said: /さん(が|は)/ },
];

for (const c of CASES) {
  test(`the ${c.lang} screens render`, async ({ page }) => {
    await page.goto('/#/');
    await expect(page.getByRole('heading', { name: 'Create a table' })).toBeVisible();
    const select = page.getByTestId('language');
    await expect(select.locator(`option[value="${c.lang}"]`)).toHaveText(c.name);
    await select.selectOption(c.lang);
    await expect(page.getByRole('heading', { name: c.create })).toBeVisible();
    await expect(page.getByTestId('create')).toHaveText(c.create);
    await expect(page.getByText('Create a table')).toHaveCount(0);

    // the choice is kept across a reload and holds at a table too
    await page.reload();
    await expect(page.getByTestId('language')).toHaveValue(c.lang);
    await expect(page.getByTestId('create')).toBeEnabled();
    // with the default end, a score target of 1000, which the form must accept
    await expect(page.getByTestId('target')).toHaveValue('1000');
    await page.getByTestId('create').click();
    await expect(page.getByTestId('start-fill')).toHaveText(c.fill);
    await expect(page.locator('.lobby-table h2')).toContainText(c.game);

    // an empty seat's label stays on one line beside the creator's seat controls, at every
    // width (Korean broke it one character per line)
    if (c.lang === 'ko') {
      const empty = page.locator('.seats .who').nth(1); // (the creator has the first seat)
      await expect(empty).toHaveText('빈 자리');
      const lineHeight = await empty.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 20);
      for (const width of [1280, 1024, 800, 360]) {
        await page.setViewportSize({ width, height: 900 });
        expect((await empty.boundingBox())!.height, `at ${width}px`).toBeLessThan(lineHeight * 1.5);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    // watching the bots play: the log is in the language's sentences, never in notation
    await page.getByTestId('start-fill').click();
    const lines = page.getByTestId('log').locator('li');
    await expect(lines.first()).toBeVisible();
    await page.waitForTimeout(1500);
    for (const line of await lines.allInnerTexts()) {
      expect(line).toMatch(c.said);
      expect(line).not.toMatch(/\bplay |\bexchange |give-dragon|no-grand|\btake\b|(?<!\p{L})(Mj|Dg|Ph|Dr|[2-9TJQKA][gkbr])(?!\p{L})|\b(passes|plays|declines)\b/u);
    }
  });
}

// Raw notation nowhere a player reads after a round either: the summary, the seat chips (and
// their titles), the match end, the replay (its first and last frames, its log) and the history,
// in English, Korean and Japanese. Card faces are left out (their corner labels are checked in
// cards.spec.ts); everything else is read with its aria-labels and titles.
const NOTATION = /\bplay |\bexchange |give-dragon|no-grand|no-bomb|\btake\b|\bwish\b|\bas [2-9TJQKA]\b|(?<!\p{L})(Mj|Dg|Ph|Dr|[2-9TJQKA][gkbr])(?!\p{L})/u;

async function words(page: import('@playwright/test').Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((roots) => roots.map((root) => {
    const copy = root.cloneNode(true) as HTMLElement;
    for (const card of copy.querySelectorAll('.card')) card.remove();
    const attrs = [...copy.querySelectorAll('[aria-label], [title]')]
      .flatMap((e) => [e.getAttribute('aria-label') ?? '', e.getAttribute('title') ?? '']);
    return [copy.textContent ?? '', ...attrs].join(' | ');
  }));
}

for (const lang of ['en', 'ko', 'ja'] as const) {
  test(`no notation in the summary, the seat chips, the replay and the history in ${lang}`, async ({ page }) => {
    test.setTimeout(150_000);
    await page.addInitScript((l) => localStorage.setItem('pagoda.lang', l), lang);
    await page.goto('/#/');
    await page.locator('input.name').fill('Nota');
    await page.getByTestId('by-rounds').click();
    await page.getByTestId('rounds').fill('1');
    await page.getByTestId('timer').fill('0');
    await page.getByTestId('create').click();
    await expect(page.locator('.seats li.mine')).toHaveCount(1);
    await page.getByTestId('start-fill').click();
    await expect(page.getByTestId('tichu-board')).toBeVisible();
    const seen: [string, string][] = [];
    const read = async (where: string, selector: string) => {
      const texts = await words(page, selector);
      expect(texts.length, `${where} is on the page`).toBeGreaterThan(0);
      for (const t of texts) seen.push([where, t]);
    };
    // a bot plays the one round for the seat; the chips are read as the round goes
    await page.getByTestId('autoplay').click();
    await read('the seat chips at the start', '.board .chip');
    const summary = page.getByTestId('summary');
    await expect(summary).toBeVisible({ timeout: 90_000 });
    await read('the seat chips at the end', '.board .chip');
    await read('the log', '[data-testid="log"]');
    await read('the summary', '[data-testid="summary"]');
    await summary.getByRole('button').click();
    await read('the match end', '[data-testid="match-over"]');
    await page.getByTestId('final-replay').click();
    await expect(page.getByTestId('replay-seat')).toHaveCount(4);
    await read('the replay’s deal', '[data-testid="replay"]');
    for (let i = 0; i < 12; i++) await page.getByTestId('replay-forward').click();
    await read('the replay in play', '[data-testid="replay"]');
    await page.getByTestId('replay-last').click();
    await expect(page.getByTestId('replay-summary')).toBeVisible();
    await read('the replay’s last frame', '[data-testid="replay"]');
    await page.goto('/#/history');
    await expect(page.getByTestId('history-row').first()).toBeVisible();
    await read('the history', '[data-testid="history"]');

    for (const [where, text] of seen) expect(text, where).not.toMatch(NOTATION);
    // and it was read in the language chosen: a word of it in each place
    const said = { en: /Round|Step|Rounds/, ko: /라운드/, ja: /ラウンド/ }[lang];
    expect(seen.filter(([w]) => w === 'the replay’s last frame')[0][1]).toMatch(said);
  });
}
