// Shared steps: the server's URL from global setup, creating a Tichu table with bots through
// the lobby, and following the latest `legal` actions the server sent this page.
import { test as base, expect, type Page } from '@playwright/test';

export const test = base.extend<{ legal: { actions: string[] } }>({
  baseURL: async ({}, use) => {
    const url = process.env.PAGODA_E2E_URL;
    if (!url) throw new Error('PAGODA_E2E_URL is not set: global setup did not run');
    await use(url);
  },
  // the legal actions of the latest snapshot/state frame on any of the page's sockets
  legal: async ({ page }, use) => {
    const legal = { actions: [] as string[] };
    page.on('websocket', (ws) => {
      ws.on('framereceived', ({ payload }) => {
        if (typeof payload !== 'string') return;
        try {
          const msg = JSON.parse(payload);
          if (msg.type === 'state' || msg.type === 'snapshot') legal.actions = msg.legal?.actions ?? [];
        } catch {
          /* not JSON */
        }
      });
    });
    await use(legal);
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
  // the creator watches until it takes a seat: the first one
  await page.getByTestId('sit').first().click();
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
  return handCards(page).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
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
