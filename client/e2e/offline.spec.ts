// While the table's connection is down, nothing the seat could press is taken: the Grand Tichu
// prompt, the exchange, Pass and Play are inert (a click could not reach the server), the page
// says it is reconnecting, and all of them work again once the connection is back. The socket is
// cut by routing it: closed at will, and refused while the cut lasts.
import type { Page, WebSocketRoute } from '@playwright/test';
import { QUICK, decide, expect, exchange, offers, seededTable, setName, sit, test } from './fixtures';

/** The page's table sockets, passed through to the server until `cut` closes them and refuses new ones. */
async function cuttable(page: Page) {
  const open: WebSocketRoute[] = [];
  let down = false;
  await page.routeWebSocket(/\/ws\//, (ws) => {
    if (down) {
      void ws.close();
      return;
    }
    ws.connectToServer();
    open.push(ws);
  });
  return {
    async cut() {
      down = true;
      for (const ws of open.splice(0)) await ws.close();
      await expect(page.getByText('Connection lost; reconnecting…')).toBeVisible();
    },
    async restore() {
      down = false;
      // the client retries with a growing delay (at most 10 s)
      await expect(page.getByText('Connection lost; reconnecting…')).toHaveCount(0, { timeout: 25_000 });
    },
  };
}

/** The control is in view but inside an inert part of the page: no click reaches it. */
async function dead(page: Page, id: string) {
  const el = page.getByTestId(id).first();
  await expect(el).toBeVisible();
  expect(await el.evaluate((e) => e.closest('[inert]') !== null), `${id} is inert`).toBe(true);
  await expect(el.click({ timeout: 1500, trial: true }), `${id} takes no click`).rejects.toThrow();
}
async function live(page: Page, id: string) {
  const el = page.getByTestId(id).first();
  await expect(el).toBeVisible();
  expect(await el.evaluate((e) => e.closest('[inert]') !== null), `${id} is live`).toBe(false);
}

test('while disconnected the Grand Tichu prompt, the exchange, Pass and Play take no click', async ({ page, legal }) => {
  test.setTimeout(120_000);
  const socket = await cuttable(page);
  await setName(page, 'Off');
  await seededTable(page, { game: 'tichu', seed: 1 });
  await sit(page, 0);
  await page.getByTestId('start-fill').click();

  // Grand Tichu
  await expect(page.getByTestId('no-grand')).toBeEnabled();
  await socket.cut();
  await dead(page, 'no-grand');
  await dead(page, 'grand');
  await socket.restore();
  await live(page, 'no-grand');
  await page.getByTestId('no-grand').click();

  // the exchange
  await expect(page.getByTestId('exchange')).toBeVisible();
  await socket.cut();
  for (const id of ['slot-left', 'slot-partner', 'slot-right', 'exchange-confirm']) await dead(page, id);
  await socket.restore();
  await exchange(page);

  // play: on this seat's turn with Pass offered (seed 1: a bot leads)
  const deadline = Date.now() + 60_000;
  for (;;) {
    expect(Date.now(), 'the seat got a turn with Pass offered').toBeLessThan(deadline);
    const o = await offers(page);
    if (o['your-turn'] && o.pass) break;
    if (!(await decide(page, legal, o, 'play').catch(() => false))) await page.waitForTimeout(50);
  }
  await socket.cut();
  await dead(page, 'pass');
  await dead(page, 'play');
  await dead(page, 'autoplay');
  await socket.restore();
  await live(page, 'pass');
  await page.getByTestId('pass').click(QUICK);
  await expect(page.getByTestId('log').locator('li', { hasText: /^Off passes$/ }).first()).toBeVisible();
});
