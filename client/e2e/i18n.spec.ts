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
