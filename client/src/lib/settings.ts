// Settings kept in localStorage: the player's name and the reduced-motion choice.

import { writable } from 'svelte/store';

function stored(key: string, initial: string): ReturnType<typeof writable<string>> {
  const saved = typeof localStorage !== 'undefined' ? localStorage.getItem(key) : null;
  const store = writable(saved ?? initial);
  store.subscribe((v) => {
    if (typeof localStorage !== 'undefined') localStorage.setItem(key, v);
  });
  return store;
}

const prefersReduced =
  typeof matchMedia !== 'undefined' && matchMedia('(prefers-reduced-motion: reduce)').matches;

export const playerName = stored('pagoda.name', '');
/** Dou Di Zhu: show the card counter (on by default), pass at once when pass is all there is. */
export const ddzCounter = stored('pagoda.ddzCounter', '1');
export const ddzAutoPass = stored('pagoda.ddzAutoPass', '0');
export const reducedMotion = stored('pagoda.reducedMotion', prefersReduced ? '1' : '0');
reducedMotion.subscribe((v) => {
  if (typeof document !== 'undefined') document.documentElement.classList.toggle('reduce-motion', v === '1');
});
/** The table's sounds (play, bomb, your turn): off unless the player turns them on. */
export const sounds = stored('pagoda.sounds', '0');
