// Shared steps: the server's URL from global setup, creating a Tichu table with bots through
// the lobby, and following the latest `legal` actions the server sent this page.
import { test as base, expect, type Page } from '@playwright/test';

export const test = base.extend<{ legal: { actions: string[] } }>({
  baseURL: async ({}, use) => {
    const url = process.env.PAGODA_E2E_URL;
    if (!url) throw new Error('PAGODA_E2E_URL is not set: global setup did not run');
    await use(url);
  },
  // the legal actions of the latest frame that carries them on any of the page's sockets
  legal: async ({ page }, use) => {
    await use(trackLegal(page));
  },
});
export { expect };

/** Create a one-round Tichu table (no turn timer) from the lobby and start it with bots. */
export async function startTichuWithBots(page: Page, name = 'E2E'): Promise<void> {
  await page.goto('/#/');
  await page.locator('input.name').fill(name);
  await page.getByTestId('by-rounds').click();
  await page.getByTestId('rounds').fill('1');
  await page.getByTestId('timer').fill('0');
  const create = page.getByTestId('create');
  await expect(create).toBeEnabled();
  await create.click();
  await expect(page).toHaveURL(/#\/t\/[^?]+\?invite=/);
  // the creator is seated at once, in the first seat
  await expect(page.locator('.seats li.mine')).toHaveCount(1);
  await expect(page.locator('.seats li').first()).toHaveClass(/mine/);
  await page.getByTestId('start-fill').click();
  await expect(page.getByTestId('tichu-board')).toBeVisible();
}

export function handCards(page: Page) {
  return page.getByTestId('hand').locator('button.card');
}

/** The cards of the hand as shown, by their card names. */
export async function handNames(page: Page): Promise<string[]> {
  return handCards(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-card') ?? ''));
}

/** Fill the three exchange slots with the first cards of the hand and confirm. */
export async function exchange(page: Page): Promise<void> {
  for (const slot of ['left', 'partner', 'right']) {
    const before = await handCards(page).count();
    await handCards(page).first().click();
    await page.getByTestId(`slot-${slot}`).click();
    await expect(page.getByTestId(`slot-${slot}`)).toHaveClass(/filled/);
    await expect(handCards(page)).toHaveCount(before - 1);
  }
  await page.getByTestId('exchange-confirm').click();
  await expect(page.getByTestId('exchange')).toBeHidden();
}

// these look without waiting: the board changes under the loop as the bots move
export async function visibleEnabled(page: Page, id: string): Promise<boolean> {
  return page.getByTestId(id).evaluateAll((els) =>
    els.some((e) => e.getClientRects().length > 0 && !(e as HTMLButtonElement).disabled));
}
export async function shown(page: Page, id: string): Promise<boolean> {
  return page.getByTestId(id).evaluateAll((els) => els.some((e) => e.getClientRects().length > 0));
}
export const QUICK = { timeout: 3000 };

/** One decision the UI offers now, taken through the UI; false when there is none. */
const OFFERS = ['no-grand', 'exchange', 'give-dragon', 'picker', 'your-turn', 'pass', 'summary'] as const;
export type Offers = Record<(typeof OFFERS)[number], boolean>;

/** Which of the controls a decision needs are shown (and enabled) now, read in one round trip. */
export async function offers(page: Page): Promise<Offers> {
  return page.evaluate((ids) => {
    const out: Record<string, boolean> = {};
    for (const id of ids) {
      out[id] = [...document.querySelectorAll(`[data-testid="${id}"]`)].some(
        (e) => e.getClientRects().length > 0 && !(e as HTMLButtonElement).disabled,
      );
    }
    return out as Offers;
  }, [...OFFERS]);
}

/**
 * One decision the UI offers now, taken through the UI; false when there is none. On its turn
 * the seat passes when it may (`prefer: 'pass'`) or plays the first legal play (`'play'`,
 * which ends a round in fewer actions).
 */
export async function decide(
  page: Page,
  legal: { actions: string[] },
  seen?: Offers,
  prefer: 'pass' | 'play' = 'pass',
): Promise<boolean> {
  const o = seen ?? (await offers(page));
  if (o['no-grand']) {
    await page.getByTestId('no-grand').click(QUICK);
    return true;
  }
  if (o.exchange) {
    await exchange(page);
    return true;
  }
  if (o['give-dragon']) {
    await page.getByTestId('give-dragon').first().click(QUICK);
    return true;
  }
  if (o.picker) {
    const none = page.getByTestId('no-wish');
    await ((await none.count()) ? none : page.getByTestId('pick')).first().click(QUICK);
    return true;
  }
  if (!o['your-turn']) return false;
  const first = legal.actions.find((a) => a.startsWith('play '));
  if (o.pass && (prefer === 'pass' || !first)) {
    await page.getByTestId('pass').click(QUICK);
    return true;
  }
  if (!first) return false;
  // the cards of the first legal play (without `as`/`wish`, which the picker asks for)
  const words = first.split(/\s+/).slice(1);
  const extra = words.findIndex((w) => w === 'as' || w === 'wish');
  const cards = extra < 0 ? words : words.slice(0, extra);
  for (const c of cards) await page.getByTestId('hand').locator(`button.card[data-card="${c}"]`).click(QUICK);
  const play = page.getByTestId('play');
  try {
    await expect(play).toBeEnabled({ timeout: 2000 });
  } catch {
    // the legal list moved on under us: clear and look again
    const clear = page.getByTestId('clear');
    await clear.click(QUICK).catch(() => undefined);
    return false;
  }
  await play.click(QUICK);
  return true;
}

/** The legal actions of the latest frame that carries them on any of a page's sockets. */
export function trackLegal(page: Page): { actions: string[] } {
  const legal = { actions: [] as string[] };
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string') return;
      try {
        const msg = JSON.parse(payload);
        // (an event carries `legal` when it changed: the last event of what a command did)
        if ((msg.type === 'state' || msg.type === 'snapshot' || msg.type === 'event') && 'legal' in msg) {
          legal.actions = msg.legal?.actions ?? [];
        }
      } catch {
        /* not JSON */
      }
    });
  });
  return legal;
}

/** Set the player's name in the header (kept in localStorage for the next pages). */
export async function setName(page: Page, name: string): Promise<void> {
  await page.goto('/#/');
  await page.locator('input.name').fill(name);
  // the page's guest is known once /api/me has set its cookie: a table created through the API
  // before then makes a second guest its owner, and the page, still the first, is no owner
  await expect.poll(async () => (await page.context().cookies()).some((c) => c.name === 'pagoda_guest')).toBe(true);
}

/** Create a table from the lobby form (one round, no turn timer); returns its invite URL. */
export async function createTable(page: Page, game: 'tichu' | 'doudizhu' = 'tichu'): Promise<string> {
  await page.goto('/#/');
  if (game === 'doudizhu') await page.getByRole('button', { name: 'Dou Di Zhu' }).click();
  await page.getByTestId('by-rounds').click();
  await page.getByTestId('rounds').fill('1');
  await page.getByTestId('timer').fill('0');
  const create = page.getByTestId('create');
  await expect(create).toBeEnabled();
  await create.click();
  await expect(page).toHaveURL(/#\/t\/[^?]+\?invite=/);
  return page.url();
}

/** Take seat `seat` (0-based) in the lobby of the table the page shows (a creator has its first seat already). */
export async function sit(page: Page, seat: number): Promise<void> {
  const li = page.locator('.seats li').nth(seat);
  // a creator's own seat is taken for it as the table loads: its Sit button may vanish under
  // the click, so click until the seat is ours
  await expect(async () => {
    if (!(await li.getAttribute('class'))?.includes('mine')) await li.getByTestId('sit').click({ timeout: 1000 });
    await expect(li).toHaveClass(/mine/, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
}

/** The summary's rows as shown: label, points, total. */
export async function summaryRows(page: Page): Promise<string[][]> {
  const rows: string[][] = [];
  for (const tr of await page.getByTestId('summary').getByTestId('summary-row').all()) {
    rows.push((await tr.locator('td').allInnerTexts()).map((x) => x.trim()));
  }
  return rows;
}

/**
 * A table made through the API (one round, no turn timer and the heuristic's bots unless `data`
 * says) with the page's guest as its owner; the page opens its lobby. The seeded scenarios of the
 * specs were found with the heuristic's play, which a seed and the bot level make deterministic.
 */
export async function seededTable(page: Page, data: Record<string, unknown>): Promise<{ id: string; url: string }> {
  const made = await page.request.post('/api/tables', { data: { rounds: 1, turn_timer: 0, bot: 'heuristic', ...data } });
  expect(made.status()).toBe(201);
  const { id, invite } = await made.json();
  const url = `/#/t/${id}?invite=${invite}`;
  await page.goto(url);
  return { id, url };
}
