// Accounts in Chromium: register, log out and in again, play a rated one-round Tichu match (a bot
// plays the seat), and find the result on the leaderboard, the profile and "my tables"; the
// account screens, the leaderboard, a profile and the history in Korean and Japanese.
import type { Locator } from '@playwright/test';
import { API_ERROR_CODES, ERROR_CODES } from '../src/lib/wire';
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

/** What each screen says in Korean and Japanese (the catalogues' texts). */
const SPOKEN = [
  {
    lang: 'ko',
    title: '계정',
    loggedIn: (name: string) => `${name}(으)로 로그인됨`,
    taken: (name: string) => `${name}은(는) 이미 쓰이는 이름입니다.`,
    badLogin: '이름과 비밀번호가 맞는 계정이 없습니다.',
    none: '아직 테이블이 없습니다.',
    leaderboard: '순위표',
    rank: '순위',
    profile: '프로필',
    recent: '최근 경기',
    noPlayer: '이 이름의 계정이 없습니다.',
    history: '끝난 게임',
    noHistory: '아직 끝난 게임이 없습니다.',
  },
  {
    lang: 'ja',
    title: 'アカウント',
    loggedIn: (name: string) => `${name} としてログイン中`,
    taken: (name: string) => `${name} はすでに使われています。`,
    badLogin: '名前とパスワードが一致するアカウントはありません。',
    none: 'まだテーブルがありません。',
    leaderboard: 'ランキング',
    rank: '順位',
    profile: 'プロフィール',
    recent: '最近の対局',
    noPlayer: 'この名前のアカウントはありません。',
    history: '終わったゲーム',
    noHistory: '終わったゲームはまだありません。',
  },
] as const;
/** A catalogue key shown as it is ("account.title"): a text the catalogue lacks. */
const KEY = /\b(?:account|history|lobby|error|game|settings|replay)\.[A-Za-z_]+/;
/** An error code shown as it is ("name_taken"): a refusal the client did not say in words. */
const CODE = new RegExp(`(?<![A-Za-z_])(?:${[...API_ERROR_CODES, ...ERROR_CODES].join('|')})(?![A-Za-z_])`);
/** The English of these screens, and of the server's reasons. */
const ENGLISH = ['Account', 'Log in', 'Register', 'Leaderboard', 'Profile', 'Recent matches', 'Rank', 'Rating',
  'Finished games', 'No finished games', 'Playing as a guest', 'My tables', 'No tables yet', 'is taken', 'do not match',
  'No account has this name', 'Refused'];

/** The panel, as shown now, says everything in words of the page's language. */
async function inWords(panel: Locator): Promise<void> {
  const text = await panel.innerText();
  expect(text, 'a catalogue key shown as it is').not.toMatch(KEY);
  expect(text, 'an error code shown as it is').not.toMatch(CODE);
  for (const english of ENGLISH) expect(text, `English "${english}" in: ${text}`).not.toContain(english);
}

test('the account screens, the leaderboard, a profile and the history speak Korean and Japanese', async ({ page }) => {
  test.setTimeout(180_000);
  // One account, registered once: a server takes five registrations from an address in a burst,
  // and the first test spends two; each language then has a registration refused of its own.
  const name = `Hana${Date.now() % 100000}`;
  await page.goto('/#/account');
  await page.getByTestId('language').selectOption('ko');
  await page.getByTestId('account-name').fill(name);
  await page.getByTestId('account-password').fill('analytical engine');
  await page.getByTestId('register').click();
  await expect(page.getByTestId('logged-in')).toContainText(`${name}(으)로 로그인됨`);
  await page.getByTestId('logout').click();
  await expect(page.getByTestId('account-name')).toBeVisible();

  for (const s of SPOKEN) {
    await page.goto('/#/account');
    await page.getByTestId('language').selectOption(s.lang);
    const account = page.getByTestId('account');
    await expect(account.locator('h2')).toHaveText(s.title);
    // the name taken (in another case), said with the name, in the page's language
    await page.getByTestId('account-name').fill(name.toUpperCase());
    await page.getByTestId('account-password').fill('another password');
    await page.getByTestId('register').click();
    await expect(page.getByTestId('account-error')).toHaveText(s.taken(name.toUpperCase()));
    await inWords(account);
    await page.getByTestId('account-password').fill('wrong password');
    await page.getByTestId('login').click();
    await expect(page.getByTestId('account-error')).toHaveText(s.badLogin);
    await inWords(account);
    await page.getByTestId('account-password').fill('analytical engine');
    await page.getByTestId('login').click();
    await expect(page.getByTestId('logged-in')).toContainText(s.loggedIn(name));
    await expect(account.getByText(s.none)).toBeVisible(); // (this account has no table yet)
    await inWords(account);

    await page.goto('/#/leaderboard/tichu');
    const board = page.getByTestId('leaderboard');
    await expect(board.locator('h2')).toContainText(s.leaderboard);
    await expect(board.locator('th').first()).toHaveText(s.rank);
    await inWords(board);

    await page.goto(`/#/players/${name}`);
    const profile = page.getByTestId('profile');
    await expect(profile.locator('h2')).toHaveText(`${s.profile}: ${name}`);
    await expect(profile.locator('h3')).toHaveText(s.recent);
    await inWords(profile);
    // nobody's profile: the refusal (404 no_player) in words
    await page.goto('/#/players/nobody-here');
    await expect(page.getByTestId('profile-error')).toHaveText(s.noPlayer);
    await inWords(page.getByTestId('profile'));

    await page.goto('/#/history');
    const history = page.getByTestId('history');
    await expect(history.locator('h2')).toHaveText(s.history);
    // (the matches other tests finished, or none)
    await expect(history.getByTestId('history-row').first().or(history.getByText(s.noHistory))).toBeVisible();
    await inWords(history);

    await page.goto('/#/account');
    await page.getByTestId('logout').click();
    await expect(page.getByTestId('account-name')).toBeVisible();
  }
});
