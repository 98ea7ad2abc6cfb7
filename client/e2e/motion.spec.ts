// Motion and sound: a play slides in from its player's seat (an animation on the play as it
// lands), a taken trick slides to its taker (Tichu: the last player, or whoever the Dragon is
// given to; Dou Di Zhu: when the table is cleared, whoever played last), none of it when the
// system asks for reduced motion; sounds are off by default and the Web Audio API plays them
// once the setting is on.
import type { Page } from '@playwright/test';
import { QUICK, expect, handCards, seededTable, setName, sit, startTichuWithBots, test } from './fixtures';

type Where = 'bottom' | 'left' | 'top' | 'right';
/** A play slid out of the trick: where it went, where the trick's top play came from, whether that was the Dragon or the Dog. */
type Taken = { to: Where; last: Where; dragon: boolean; dog: boolean };

// every trick play as it lands: where it came from, and whether it moved; and every play as it
// slides out of a taken trick
async function watch(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { landed: { from: string; moving: number }[]; taken: unknown[]; notes: number };
    w.landed = [];
    w.taken = [];
    w.notes = 0;
    // the elements given an animation that lasts (a slide), whenever it ran: a busy machine may
    // end a 380 ms slide before the play is looked at
    const slid = new WeakSet<Element>();
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (this: Element, keyframes, options) {
      const ms = typeof options === 'number' ? options : Number(options?.duration ?? 0);
      if (ms > 0) slid.add(this);
      // a slide in ends in the middle (translate 0 0); a slide out ends at a seat's place
      const el = this as HTMLElement;
      if (ms > 0 && el.dataset?.testid === 'trick-play' && Array.isArray(keyframes) && keyframes.length) {
        const end = String(keyframes[keyframes.length - 1].transform ?? '');
        const m = /translate\((-?[\d.e-]+)px, (-?[\d.e-]+)px\)/.exec(end);
        const [x, y] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
        // (a Tichu trick's plays go together, to whoever took the trick its top play ended: the
        // top play stands for its trick; the bots play without delay, so the plays of a trick
        // taken a moment before may still be sliding out beside it)
        if ((Math.abs(x) > 1 || Math.abs(y) > 1) && el.classList.contains('top')) {
          const to = Math.abs(x) > Math.abs(y) ? (x > 0 ? 'right' : 'left') : y > 0 ? 'bottom' : 'top';
          const top = el;
          w.taken.push({
            to,
            last: top.dataset.from ?? '',
            dragon: !!top.querySelector('[data-card="Dr"]'),
            dog: !!top.querySelector('[data-card="Dg"]'),
          });
        }
      }
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
const taken = (page: Page) => page.evaluate(() => (window as unknown as { taken: Taken[] }).taken);
const notes = (page: Page) => page.evaluate(() => (window as unknown as { notes: number }).notes);
// the Dragon's trick goes to an opponent of its player: a seat beside it, never the partner opposite;
// the Dog goes to its player's partner, opposite, who takes the lead
const BESIDE: Record<Where, Where[]> = { bottom: ['left', 'right'], top: ['left', 'right'], left: ['top', 'bottom'], right: ['top', 'bottom'] };
const OPPOSITE: Record<Where, Where> = { bottom: 'top', top: 'bottom', left: 'right', right: 'left' };
const takers = (g: Taken): Where[] => (g.dragon ? BESIDE[g.last] : g.dog ? [OPPOSITE[g.last]] : [g.last]);

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
  // taken tricks slide to their takers: the top play's player, an opponent given the Dragon, or
  // the partner of the Dog's player
  await expect.poll(async () => (await taken(page)).length, { timeout: 60_000 }).toBeGreaterThan(3);
  const gone = await taken(page);
  for (const g of gone) expect(takers(g), JSON.stringify(g)).toContain(g.to);
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
  test.setTimeout(150_000);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await watch(page);
  await botsPlay(page);
  const seen = await landed(page);
  expect(seen.filter((l) => l.moving > 0)).toEqual([]);
  // the round is played to its end, tricks taken, none of them sliding away; a taken trick is
  // read from the "Last trick" button (from the 60 actions the table keeps), not from the log's
  // newest eight lines, which can end a round without one (a Dragon given away, then a one-two)
  await expect(page.getByTestId('summary')).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('last-trick-button')).toBeVisible();
  expect(await taken(page)).toEqual([]);
});

for (const motion of ['no-preference', 'reduce'] as const) {
  test(`Dou Di Zhu: a cleared table's last play slides to whoever won it (${motion})`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ reducedMotion: motion });
    await watch(page);
    await setName(page, 'Mo');
    await seededTable(page, { game: 'doudizhu', seed: 3 });
    await sit(page, 0);
    await page.getByTestId('start-fill').click();
    await expect(page.getByTestId('ddz-board')).toBeVisible();
    await page.getByTestId('autoplay').click(QUICK);
    if (motion === 'reduce') {
      await expect(page.getByTestId('match-over')).toBeVisible({ timeout: 90_000 });
      expect((await landed(page)).length).toBeGreaterThan(3);
      expect((await landed(page)).filter((l) => l.moving > 0)).toEqual([]);
      expect(await taken(page)).toEqual([]);
      return;
    }
    await expect.poll(async () => (await taken(page)).length, { timeout: 90_000 }).toBeGreaterThan(1);
    const gone = await taken(page);
    // the play left on a cleared table goes back to its own player, the winner who leads next
    for (const g of gone) expect(g.to, JSON.stringify(g)).toBe(g.last);
    expect(gone.every((g) => ['bottom', 'left', 'right'].includes(g.to))).toBe(true);
  });
}
