// Motion and sound: a play slides in from its player's seat (an animation on the play as it
// lands), none when the system asks for reduced motion; sounds are off by default and the
// Web Audio API plays them once the setting is on.
import type { Page } from '@playwright/test';
import { QUICK, expect, handCards, startTichuWithBots, test } from './fixtures';

// every trick play as it lands: where it came from, and whether it moved
async function watch(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { landed: { from: string; moving: number }[]; notes: number };
    w.landed = [];
    w.notes = 0;
    // the elements given an animation that lasts (a slide), whenever it ran: a busy machine may
    // end a 380 ms slide before the play is looked at
    const slid = new WeakSet<Element>();
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (this: Element, keyframes, options) {
      const ms = typeof options === 'number' ? options : Number(options?.duration ?? 0);
      if (ms > 0) slid.add(this);
      return animate.call(this, keyframes, options);
    };
    const make = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function (this: AudioContext) {
      w.notes++;
      return make.call(this);
    };
    new MutationObserver((changes) => {
      for (const c of changes) for (const n of c.addedNodes) {
        if (n instanceof HTMLElement && n.dataset.testid === 'trick-play') {
          // a slide starts on the frame after the play is inserted, and lasts a few hundred ms
          setTimeout(() => w.landed.push({ from: n.dataset.from ?? '', moving: slid.has(n) ? 1 : n.getAnimations().length }), 60);
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
}
const landed = (page: Page) => page.evaluate(() => (window as unknown as { landed: { from: string; moving: number }[] }).landed);
const notes = (page: Page) => page.evaluate(() => (window as unknown as { notes: number }).notes);

async function botsPlay(page: Page): Promise<void> {
  await startTichuWithBots(page, 'Mo');
  await expect(handCards(page)).toHaveCount(8);
  await page.getByTestId('autoplay').click(QUICK);
  await expect.poll(async () => (await landed(page)).length, { timeout: 30_000 }).toBeGreaterThan(6);
}

test('plays slide in from their seats; sounds are off until turned on', async ({ page }) => {
  test.setTimeout(90_000);
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await watch(page);
  await botsPlay(page);
  const seen = await landed(page);
  expect(seen.every((l) => ['bottom', 'left', 'top', 'right'].includes(l.from))).toBe(true);
  expect(new Set(seen.map((l) => l.from)).size).toBeGreaterThan(1);
  expect(seen.filter((l) => l.moving > 0).length).toBeGreaterThan(seen.length / 2);
  // no sound by default
  await expect(page.getByTestId('sounds-toggle')).not.toBeChecked();
  expect(await notes(page)).toBe(0);
});

test('the sounds setting plays the table through the Web Audio API', async ({ page }) => {
  test.setTimeout(90_000);
  await watch(page);
  await startTichuWithBots(page, 'So');
  await page.getByTestId('sounds-toggle').check();
  await page.getByTestId('autoplay').click(QUICK);
  await expect.poll(async () => (await landed(page)).length, { timeout: 30_000 }).toBeGreaterThan(2);
  await expect.poll(() => notes(page), { timeout: 10_000 }).toBeGreaterThan(0);
  // the setting is kept for the next table
  expect(await page.evaluate(() => localStorage.getItem('pagoda.sounds'))).toBe('1');
});

test('nothing moves for reduced motion', async ({ page }) => {
  test.setTimeout(90_000);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await watch(page);
  await botsPlay(page);
  const seen = await landed(page);
  expect(seen.filter((l) => l.moving > 0)).toEqual([]);
});
