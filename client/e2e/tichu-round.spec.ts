// One person and three bots play a whole Tichu round through the browser.
import { decide, expect, handCards, shown, startTichuWithBots, test } from './fixtures';

type Row = { names: string[]; points: number; total: number };

test('a person and three bots finish a Tichu round', async ({ page, legal }) => {
  await startTichuWithBots(page);
  await expect(handCards(page)).toHaveCount(8);

  const summary = page.getByTestId('summary');
  const named = new Set<string>();
  let decisions = 0;
  const deadline = Date.now() + 75_000;
  while (!(await shown(page, 'summary'))) {
    expect(Date.now(), 'the round should end in time').toBeLessThan(deadline);
    if (await decide(page, legal).catch(() => false)) decisions++;
    else await page.waitForTimeout(50);
    // each play on the table is named in words
    for (const name of await page.getByTestId('combo').allInnerTexts().catch(() => [])) {
      expect(name).toMatch(/^(a |an |three |stairs |the |Phoenix|Dog)/);
      named.add(name);
    }
  }
  expect(named.size, 'some plays were named on the table').toBeGreaterThan(0);
  expect(decisions).toBeGreaterThanOrEqual(3); // no grand, the exchange, at least one play or pass

  // the log speaks in sentences that start with a player's name, never in the notation
  const log = await page.getByTestId('log').locator('li').allInnerTexts();
  expect(log.length).toBeGreaterThan(0);
  const seatNames = await page.locator('.chip-name').allInnerTexts();
  for (const line of log) {
    expect(line).not.toMatch(/\bplay |\bexchange |give-dragon|no-grand|\btake\b|(?<!\p{L})(Mj|Dg|Ph|Dr|[2-9TJQKA][gkbr])(?!\p{L})/u);
    expect(seatNames.some((n) => line.startsWith(n.replace(/ \(you\)$/, '')) || line.startsWith('Grand Tichu: ')), line).toBe(true);
  }

  // the summary, read as shown
  const rows: Row[] = [];
  for (const tr of await summary.getByTestId('summary-row').all()) {
    const label = (await tr.locator('td').first().innerText()).trim();
    const m = /^Team \d: (.+) & (.+)$/.exec(label);
    expect(m, `row label ${label}`).not.toBeNull();
    rows.push({
      names: [m![1], m![2]],
      points: Number((await tr.getByTestId('summary-points').innerText()).replace('+', '')),
      total: Number(await tr.getByTestId('summary-total').innerText()),
    });
  }
  expect(rows).toHaveLength(2);
  expect(rows[0].names).toContain('E2E');
  const team = (name: string) => {
    const t = rows.findIndex((r) => r.names.includes(name.replace(/ \(you\)$/, '')));
    expect(t, `team of ${name}`).toBeGreaterThanOrEqual(0);
    return t;
  };
  const pills = await summary.locator('p.small').nth(0).locator('.pill').allInnerTexts();
  const out = pills.map((p) => p.replace(/^\d+\. /, ''));
  expect(out.length).toBeGreaterThanOrEqual(2);
  const calls = await summary.locator('p.small').nth(1).locator('.pill').allInnerTexts();
  const cardPoints = (await summary.getByTestId('card-points').allInnerTexts()).map(Number);
  expect(cardPoints).toHaveLength(2);

  // the round's points from what the summary shows: one-two 200, else card points (100 in
  // all), then +/- 100 for Tichu and 200 for Grand Tichu by whether the caller went out first
  const oneTwo = team(out[0]) === team(out[1]);
  const expected = oneTwo ? [0, 0] : [...cardPoints];
  if (oneTwo) expected[team(out[0])] = 200;
  else expect(cardPoints[0] + cardPoints[1]).toBe(100);
  for (const c of calls) {
    const [name, what] = c.split(': ');
    const bonus = what === 'Grand Tichu' ? 200 : 100;
    expected[team(name)] += name === out[0].replace(/ \(you\)$/, '') ? bonus : -bonus;
  }
  expect(rows.map((r) => r.points)).toEqual(expected);
  // the first round: the totals are the round's points
  expect(rows.map((r) => r.total)).toEqual(expected);

  // one round was asked for: the match is over, and the board shows the same totals
  await summary.getByRole('button').click();
  await expect(summary).toBeHidden();
  await expect(page.getByTestId('match-over')).toBeVisible();
  await expect(page.locator('.scores b')).toHaveText(expected.map(String));
});
