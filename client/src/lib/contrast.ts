// WCAG 2 contrast ratios of CSS colours (#rgb, #rgba, #rrggbb, #rrggbbaa), translucent ones laid
// over what is beneath them, so the table's colours can be checked against AA (4.5:1) in tests.

export type RGBA = [number, number, number, number];

/** A hex colour as red, green, blue (0-255) and alpha (0-1). */
export function parseColor(hex: string): RGBA {
  const h = hex.trim().replace(/^#/, '');
  const full = h.length <= 4 ? [...h].map((c) => c + c).join('') : h;
  if (!/^[0-9a-f]{6}([0-9a-f]{2})?$/i.test(full)) throw new Error(`not a hex colour: ${hex}`);
  const n = (i: number) => parseInt(full.slice(i, i + 2), 16);
  return [n(0), n(2), n(4), full.length === 8 ? n(6) / 255 : 1];
}

/** `top` laid over `bottom` (the result is opaque when `bottom` is). */
export function over(top: RGBA, bottom: RGBA): RGBA {
  const a = top[3];
  return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1) as RGBA;
}

function luminance([r, g, b]: RGBA): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The contrast ratio of two opaque colours, 1 to 21. */
export function contrast(a: RGBA, b: RGBA): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The custom properties (`--name: value;`) of a stylesheet's `:root` rules. */
export function rootVars(css: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const block of css.matchAll(/:root\s*\{([^}]*)\}/g)) {
    for (const m of block[1].matchAll(/--([\w-]+)\s*:\s*([^;]+);/g)) out[m[1]] = m[2].trim();
  }
  return out;
}
