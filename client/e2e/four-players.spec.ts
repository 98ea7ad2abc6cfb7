// Four people in four browser contexts play one Tichu table together while a fifth watches:
// they join by the invite link, the creator swaps two seats, the round is played to its end
// through the UI, everyone sees the same summary, and the replay of the round can be opened.
import { createTable, decide, expect, offers, setName, sit, summaryRows, test, trackLegal } from './fixtures';

const NAMES = ['Ann', 'Ben', 'Cho', 'Dia'];

test('four people play one Tichu table, a spectator watches, the replay opens', async ({ browser, baseURL }) => {
  test.setTimeout(150_000);
  const contexts = await Promise.all([...NAMES, 'Eve'].map(() => browser.newContext({ baseURL })));
  const all = await Promise.all(contexts.map((c) => c.newPage()));
  const players = all.slice(0, 4);
  const watcher = all[4];
  const legal = players.map(trackLegal);

  // what the spectator's sockets carry: never a hand, never another seat's exchange
  const leaks: string[] = [];
  watcher.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string') return;
      const msg = JSON.parse(payload);
      if (msg.game && 'hand' in msg.game) leaks.push(`hand in ${msg.type}`);
      if (msg.event?.kind === 'action' && /^exchange\s/.test(msg.event.action)) leaks.push(msg.event.action);
    });
  });

  for (const [i, p] of all.entries()) await setName(p, [...NAMES, 'Eve'][i]);
  const invite = await createTable(players[0]);
  const id = /#\/t\/([^?]+)/.exec(invite)![1];
  await sit(players[0], 0);
  for (let i = 1; i < 4; i++) {
    await players[i].goto(invite);
    await sit(players[i], i);
  }
  await watcher.goto(invite);
  await expect(players[0].locator('.lobby-table h2')).toContainText('1 watching');

  // the partner swap: Ben (seat 2 of 4, index 1) and Cho (index 2) change places, so Ann and
  // Ben sit opposite each other (seats 0 and 2) and are partners
  await players[0].getByTestId('swap-1').selectOption('2');
  await expect(players[1].locator('.seats li').nth(2)).toHaveClass(/mine/);
  await expect(players[2].locator('.seats li').nth(1)).toHaveClass(/mine/);
  await expect(watcher.locator('.seats li .who')).toHaveText(['Ann', 'Cho', 'Ben', 'Dia']);
  // only the creator may start or swap
  await expect(players[1].getByTestId('start')).toHaveCount(0);
  await expect(players[1].getByTestId('swap-0')).toHaveCount(0);

  await players[0].getByTestId('start').click();
  for (const p of players) await expect(p.getByTestId('tichu-board')).toBeVisible();
  await expect(watcher.getByTestId('watching')).toBeVisible();
  // the spectator's board: all four seats' public state
  await expect(watcher.locator('.board .chip')).toHaveCount(4);
  // top: the partner of seat 0 (Ben after the swap), left: the previous seat, right: the next
  await expect(watcher.locator('.board .chip-name')).toHaveText(['Ben', 'Dia', 'Cho', 'Ann']);

  let sawPlay = false;
  let decisions = 0;
  const deadline = Date.now() + 110_000;
  for (;;) {
    let moved = false;
    let finished = 0;
    for (const [i, p] of players.entries()) {
      const o = await offers(p);
      if (o.summary) finished++;
      else if (await decide(p, legal[i], o, 'play').catch(() => false)) {
        moved = true;
        decisions++;
      }
    }
    if (finished === 4) break;
    // the spectator sees the plays, and has no hand and no card face outside the trick
    const view = await watcher.evaluate(() => ({
      plays: document.querySelectorAll('.trick .play').length,
      hands: document.querySelectorAll('[data-testid="hand"]').length,
      faces: [...document.querySelectorAll('.card')]
        .filter((e) => !e.closest('.trick'))
        .map((e) => `${e.getAttribute('data-card')} in ${e.parentElement?.parentElement?.outerHTML.slice(0, 300)}`),
    }));
    sawPlay ||= view.plays > 0;
    expect(view.hands).toBe(0);
    expect(view.faces).toEqual([]);
    expect(Date.now(), 'the round should end in time').toBeLessThan(deadline);
    if (!moved) await players[0].waitForTimeout(50);
  }
  // 4 no-grands and 4 exchanges, then the plays (and passes where nothing beats the top)
  expect(decisions).toBeGreaterThan(8);
  expect(sawPlay).toBe(true);
  expect(leaks).toEqual([]);

  // everyone, the spectator included, sees the same summary
  const rows = await summaryRows(players[0]);
  expect(rows).toHaveLength(2);
  expect(rows[0][0]).toBe('Ann & Ben');
  expect(rows[1][0]).toBe('Cho & Dia');
  for (const p of [...players.slice(1), watcher]) {
    await expect(p.getByTestId('summary')).toBeVisible();
    expect(await summaryRows(p)).toEqual(rows);
  }
  const points = rows.map((r) => Number(r[1].replace('+', '')));

  // the replay of this round, from the lobby's list of finished games
  const ann = players[0];
  await ann.getByTestId('summary').getByRole('button').click();
  await expect(ann.getByTestId('match-over')).toBeVisible();
  await ann.getByTestId('match-over').getByTestId('final-lobby').click();
  await ann.getByTestId('history-link').click();
  const link = ann.locator(`[data-testid="replay-link"][href="#/replay/${id}"]`);
  await expect(link).toHaveCount(1);
  await link.click();
  await expect(ann.getByTestId('replay-action')).toHaveText('The deal');
  // the deal: four hands of 8 cards (the Grand Tichu call comes before the other 6), all face up
  await expect(ann.getByTestId('replay-seat')).toHaveCount(4);
  for (const hand of await ann.getByTestId('replay-hand').all()) await expect(hand.locator('.card')).toHaveCount(8);
  await ann.getByTestId('replay-forward').click();
  await expect(ann.getByTestId('replay-action')).toHaveText(/^Grand Tichu: (Ann|Ben|Cho|Dia) declines$/);
  // the replay log is in sentences, dark on its light panel
  const replayLog = ann.getByTestId('replay-log');
  await expect(replayLog.locator('li:not(.future)')).toHaveText([/^Grand Tichu: (Ann|Ben|Cho|Dia) declines$/]);
  await expect(replayLog).toHaveCSS('color', 'rgb(27, 27, 27)');
  await expect(replayLog).toHaveCSS('background-color', 'rgb(241, 238, 230)');
  await ann.getByTestId('replay-back').click();
  await expect(ann.getByTestId('replay-action')).toHaveText('The deal');
  await ann.getByTestId('replay-last').click();
  const summary = ann.getByTestId('replay-summary');
  await expect(summary).toBeVisible();
  await expect(summary).toContainText(`Points ${points.join(' : ')}`);
  const step = await ann.getByTestId('replay-step').innerText();
  const [, at, total] = /Step (\d+) of (\d+)/.exec(step)!;
  expect(at).toBe(total);
  // the same number of steps as actions in the record, plus the deal
  const record = await (await ann.request.get(`/api/tables/${id}/record`)).text();
  const actions = record.split('\n').filter((l) => /^\d+ /.test(l.trim())).length;
  expect(actions).toBeGreaterThan(0);
  expect(Number(total)).toBe(actions + 1);

  for (const c of contexts) await c.close();
});
