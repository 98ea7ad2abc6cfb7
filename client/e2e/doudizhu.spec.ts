// A Dou Di Zhu round with the auction: one person and two bots of levels chosen per seat.
// The person bids through the UI, the landlord reveal shows the 3 kept cards, the round is
// played to its end and the summary shows. The table is dealt from seed 1, whose auction the
// first seat opens, so the person always bids first.
import type { Page } from '@playwright/test';
import { QUICK, expect, setName, shown, sit, test, visibleEnabled } from './fixtures';

const SEED = 1;

/** Select the cards of `text` (a Dou Di Zhu play) in the hand, one button per card. */
async function select(page: Page, cards: string): Promise<void> {
  for (const c of cards) {
    await page.getByTestId('hand').locator(`button.card[data-card="${c}"][aria-pressed="false"]`).first().click(QUICK);
  }
}

test('a Dou Di Zhu round with the auction, the landlord reveal and the summary', async ({ page, legal }) => {
  await setName(page, 'E2E');
  const made = await page.request.post('/api/tables', {
    data: { game: 'doudizhu', rounds: 1, turn_timer: 0, seed: SEED },
  });
  expect(made.status()).toBe(201);
  const { id, invite } = await made.json();
  await page.goto(`/#/t/${id}?invite=${invite}`);
  await sit(page, 0);
  // a bot of a chosen level in each empty seat: heuristic at seat 2, random at seat 3
  // each seat's choice starts at the table's bot (heuristic, the default)
  await expect(page.getByTestId('bot-level-1')).toHaveValue('heuristic');
  await expect(page.getByTestId('bot-level-2')).toHaveValue('heuristic');
  await page.getByTestId('bot-level-1').selectOption('heuristic');
  await page.getByTestId('add-bot-1').click();
  await expect(page.locator('.seats li .who').nth(1)).toHaveText('Basic (bot)');
  await page.getByTestId('bot-level-2').selectOption('random');
  await page.getByTestId('add-bot-2').click();
  await expect(page.locator('.seats li .who').nth(2)).toHaveText('Random (bot)');
  await page.getByTestId('start').click();
  await expect(page.getByTestId('ddz-board')).toBeVisible();
  await expect(page.getByTestId('hand').locator('button.card')).toHaveCount(17);

  // the auction: the person opens it and bids the highest bid, 3, which ends it at once
  const bid = page.getByTestId('bid');
  await expect(bid, `seed ${SEED}: the first seat opens the auction`).toHaveCount(3);
  expect(await bid.evaluateAll((els) => els.map((e) => e.getAttribute('data-action')))).toEqual(['bid 1', 'bid 2', 'bid 3']);
  await expect(page.getByTestId('auction-pass')).toBeEnabled();
  await bid.last().click();
  // the reveal: the 3 kept cards face up, and the landlord's hand grows to 17 + 3 = 20
  const kitty = page.getByTestId('kitty');
  await expect(kitty.locator('.card')).toHaveCount(3);
  await expect(page.getByTestId('hand').locator('button.card')).toHaveCount(20);
  const kept = await kitty.locator('.card').evaluateAll((els) => els.map((e) => e.getAttribute('data-card') ?? ''));
  const hand = await page.getByTestId('hand').locator('button.card').evaluateAll((els) => els.map((e) => e.getAttribute('data-card') ?? ''));
  for (const c of kept) expect(hand).toContain(c);
  const landlord = await page.locator('.chip').filter({ hasText: 'Landlord' }).locator('.chip-name').innerText();
  expect(landlord).toBe('E2E (you)');

  // the card counter: before any play, 54 cards less the landlord's 20 are unseen (the others'
  // 34), and it counts by rank; its switch hides it
  const counter = page.getByTestId('counter');
  await expect(counter).toBeVisible();
  const left = (await counter.innerText()).match(/×(\d+)/g)?.map((x) => Number(x.slice(1))) ?? [];
  expect(left).toHaveLength(15);
  expect(left.reduce((a, b) => a + b, 0)).toBe(34);
  await page.getByTestId('counter-toggle').uncheck();
  await expect(counter).toBeHidden();
  await page.getByTestId('counter-toggle').check();

  // play: pass when allowed, otherwise the first legal play
  const deadline = Date.now() + 60_000;
  let plays = 0;
  while (!(await shown(page, 'summary'))) {
    expect(Date.now(), 'the round should end in time').toBeLessThan(deadline);
    if (!(await shown(page, 'your-turn'))) {
      await page.waitForTimeout(50);
      continue;
    }
    try {
      if (await visibleEnabled(page, 'pass')) {
        await page.getByTestId('pass').click(QUICK);
        continue;
      }
      const first = legal.actions.find((a) => a.startsWith('play '));
      if (!first) continue;
      await select(page, first.split(/\s+/)[1]);
      await expect(page.getByTestId('play')).toBeEnabled({ timeout: 2000 });
      await page.getByTestId('play').click(QUICK);
      plays++;
    } catch {
      await page.getByTestId('clear').click(QUICK).catch(() => undefined);
    }
  }
  const summary = page.getByTestId('summary');
  await expect(summary.getByTestId('summary-row')).toHaveCount(3);
  // the winning side is named, and the score is explained: the bid, then bid × multiplier
  const outcome = await summary.getByTestId('ddz-outcome').innerText();
  expect(outcome).toMatch(/^(The landlord wins: E2E|The peasants win: .+ & .+)$/);
  await expect(summary.getByTestId('explain')).toContainText(/Bid: [123]/);
  await expect(summary.getByTestId('explain')).toContainText(/[123] × \d+ = \d+ for each peasant; the landlord \d+/);
  // Dou Di Zhu is zero-sum: the three seats' points add up to 0
  const points = (await summary.getByTestId('summary-points').allInnerTexts()).map((x) => Number(x.replace('+', '')));
  expect(points.reduce((a, b) => a + b, 0)).toBe(0);
  expect(points.every((p) => p !== 0)).toBe(true);
  // each multiplier on its own line (bid, then ×2 per bomb, rocket, spring): they multiply up to
  // what each peasant got or paid
  const factors = (await summary.getByTestId('factor').locator('td.num').allInnerTexts()).map((x) => Number(x.replace('×', '')));
  expect(factors.length).toBeGreaterThanOrEqual(1);
  const unit = factors.reduce((a, b) => a * b, 1);
  expect(points.filter((p) => Math.abs(p) === unit)).toHaveLength(2);
  expect(points.filter((p) => Math.abs(p) === 2 * unit)).toHaveLength(1);
  // the landlord leads the first trick: the person played at least once
  expect(plays).toBeGreaterThan(0);
});
