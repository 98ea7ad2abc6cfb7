import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contrast, over, parseColor, rootVars } from './contrast';

const css = readFileSync(new URL('../app.css', import.meta.url), 'utf8');
const v = rootVars(css);
const c = (name: string) => parseColor(v[name]);
const AA = 4.5;

describe('contrast arithmetic', () => {
  it('matches known ratios', () => {
    expect(contrast(parseColor('#000'), parseColor('#fff'))).toBeCloseTo(21, 5);
    expect(contrast(parseColor('#777777'), parseColor('#ffffff'))).toBeCloseTo(4.48, 2);
    expect(over(parseColor('#00000080'), parseColor('#ffffff'))[0]).toBeCloseTo(127, 5);
  });
});

describe('the table’s colours pass WCAG AA', () => {
  // the felt's lighter end is the hardest background for light text
  const felt = c('felt-2');
  const chip = over(parseColor('#0004'), felt);
  const prompt = over(parseColor('#0004'), felt);
  const panel = over(parseColor(v.panel), felt);
  it('the Clear button and ghost Cancel buttons on the felt', () => {
    expect(contrast(c('on-felt'), felt)).toBeGreaterThanOrEqual(AA);
    expect(contrast(c('on-felt'), prompt)).toBeGreaterThanOrEqual(AA);
    expect(css).toMatch(/\.board button\.ghost \{ color: var\(--on-felt\);/);
  });
  it('the grey notes ("0 pts") on a seat chip', () => {
    expect(contrast(c('on-felt-muted'), chip)).toBeGreaterThanOrEqual(AA);
    expect(contrast(c('on-felt-muted'), felt)).toBeGreaterThanOrEqual(AA);
    expect(css).toMatch(/\.board \.muted, \.board \.chip \.muted \{ color: var\(--on-felt-muted\); \}/);
  });
  it('the replay log on its panel, and muted text on panels', () => {
    const logBg = over(c('log-panel-bg'), panel);
    expect(contrast(c('log-panel-ink'), logBg)).toBeGreaterThanOrEqual(AA);
    expect(contrast(c('muted'), panel)).toBeGreaterThanOrEqual(AA);
    expect(contrast(c('muted'), over(parseColor('#fff7dc'), panel))).toBeGreaterThanOrEqual(AA);
  });
  it('the old colours would fail (the check can fail)', () => {
    expect(contrast(parseColor('#1b1b1b'), felt)).toBeLessThan(AA); // the Clear button before
    expect(contrast(parseColor('#6b6b6b'), chip)).toBeLessThan(AA); // "0 pts" before
  });
});
