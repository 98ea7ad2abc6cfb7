// The lobby and the way to a seat: the creator is seated at the table it creates, the seats show
// the teams, a free seat is one click from the lobby list, presets and bots are explained in the
// player's language, and "my tables" is reachable from the lobby.
import { expect, setName, test } from './fixtures';

test('the creator is seated, teams are shown, and others join in one click', async ({ page, browser }) => {
  test.setTimeout(60_000);
  await setName(page, 'Ann');
  await page.getByTestId('by-rounds').click();
  await page.getByTestId('rounds').fill('1');
  await expect(page.getByTestId('create')).toBeEnabled();
  await page.getByTestId('create').click();
  // the creator sits in the first seat at once; the link it can share asks nobody to sit
  await expect(page.locator('.seats li').first()).toHaveClass(/mine/);
  await expect(page.locator('.seats li').first().locator('.who')).toContainText('Ann');
  await expect(page).toHaveURL(/#\/t\/[^?]+\?invite=[^&]+$/);
  const id = /#\/t\/([^?]+)/.exec(page.url())![1];
  // Tichu's partners sit opposite: seats 1 and 3 are a team, 2 and 4 the other
  await expect(page.getByTestId('seat-team')).toHaveText(['Team 1', 'Team 2', 'Team 1', 'Team 2']);
  await expect(page.getByTestId('teams-hint')).toHaveText('Partners sit opposite each other: seats 1 and 3 play against seats 2 and 4.');
  await expect(page.getByTestId('preset-about')).toHaveText('The usual rules: the last player’s tricks go to the player who went out first.');

  // Ben sees the table in the lobby, by team, and joins with one click: the first free seat
  const other = await browser.newContext();
  const ben = await other.newPage();
  await setName(ben, 'Ben');
  const row = ben.locator(`[data-testid="lobby-table"][data-table="${id}"]`);
  await expect(row.getByTestId('team-0')).toContainText('Ann');
  await expect(row.getByTestId('team-0').getByTestId('sit-link')).toHaveCount(1); // seat 3
  await expect(row.getByTestId('team-1').getByTestId('sit-link')).toHaveCount(2); // seats 2 and 4
  await row.getByTestId('join').click();
  await expect(ben.locator('.seats li').nth(1)).toHaveClass(/mine/);
  await expect(page.locator('.seats li').nth(1).locator('.who')).toContainText('Ben');

  // Cleo picks Ann's partner's seat from the lobby list: one click, that seat
  const third = await browser.newContext();
  const cleo = await third.newPage();
  await setName(cleo, 'Cleo');
  const cleoRow = cleo.locator(`[data-testid="lobby-table"][data-table="${id}"]`);
  await cleoRow.getByRole('link', { name: 'Sit at seat 3' }).click();
  await expect(cleo.locator('.seats li').nth(2)).toHaveClass(/mine/);
  await expect(page.locator('.seats li').nth(2).locator('.who')).toContainText('Cleo');

  // Ann's lobby lists the table under "my tables", and the whole list is a click away
  await page.goto('/#/');
  const mine = page.getByTestId('my-tables');
  await expect(mine.locator('li')).toHaveCount(1);
  await mine.getByTestId('all-mine').click();
  await expect(page.getByTestId('account')).toBeVisible();
  await expect(page.getByTestId('my-live').locator('li')).toHaveCount(1);
  await other.close();
  await third.close();
});

test('presets and bots are explained in Korean', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('pagoda.lang', 'ko'));
  await page.goto('/#/');
  await expect(page.getByTestId('create')).toBeEnabled();
  await expect(page.getByTestId('preset-about')).toHaveText('일반 규칙: 꼴찌의 트릭은 1등으로 나간 사람에게 갑니다.');
  // each game's own default level, as the server names it: Tichu's club bot, Dou Di Zhu's heuristic
  await expect(page.getByTestId('bot')).toHaveValue('club');
  await page.getByRole('button', { name: '투지주' }).click();
  await expect(page.getByTestId('preset')).toHaveValue('classic');
  await expect(page.getByTestId('preset').locator('option')).toHaveText(['클래식', '4인용', '라이즈(만능 카드)', 'OpenSpiel', 'RLCard']);
  await page.getByTestId('preset').selectOption('four_player');
  await expect(page.getByTestId('preset-about')).toHaveText(
    '4명, 카드 두 벌, 지주는 8장을 더 받습니다. 폭탄은 4~8장(5장 이상만 배수), 조커 4장이 로켓입니다.',
  );
  await expect(page.getByTestId('bot')).toHaveValue('heuristic');
  await expect(page.getByTestId('bot-about')).toHaveText('손패의 힘을 보고 부르고, 최대한 적은 조합으로 패를 털어냅니다.');
  await page.getByTestId('bot').selectOption('search');
  await expect(page.getByTestId('bot-about')).toHaveText('독학형처럼 부르고, 매 수마다 가능한 패 배분을 여러 번 끝까지 둬 봅니다: 가장 강하지만 느립니다.');
  // no engine name is left in the choices
  const labels = await page.getByTestId('bot').locator('option').allInnerTexts();
  for (const l of labels) expect(l).not.toMatch(/heuristic|search|random|level/);
});
