import type { Page } from 'playwright-core';

export interface LowContrast {
  text: string;
  className: string;
  color: string;
  background: string;
  ratio: number;
}

/**
 * Runs in the page: for every visible element holding text, the contrast ratio (WCAG 2) between
 * its colour and the background actually behind it (semi-transparent layers composited over their
 * parents). Colours are read through a canvas so that any CSS colour syntax (color-mix, oklab…) is
 * measured as drawn. Disabled controls are left out, as WCAG exempts inactive components.
 */
const MEASURE = `(() => {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const rgba = (css) => {
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = '#000';
    ctx.fillStyle = css;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
    return [r, g, b, a / 255];
  };
  const over = (top, bottom) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1);
  };
  const background = (el) => {
    const layers = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const color = rgba(getComputedStyle(node).backgroundColor);
      if (color[3] > 0) layers.push(color);
      if (color[3] >= 1) break;
    }
    let result = rgba(getComputedStyle(document.documentElement).backgroundColor);
    if (result[3] < 1) result = [255, 255, 255, 1];
    for (const layer of layers.reverse()) result = over(layer, result);
    return result;
  };
  const luminance = ([r, g, b]) => {
    const c = [r, g, b].map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const hidden = (el) => {
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      if (node.matches('.sr-only, [aria-hidden="true"], :disabled, canvas, svg')) return true;
    }
    const rect = el.getBoundingClientRect();
    return rect.width === 0 || rect.height === 0 || getComputedStyle(el).visibility === 'hidden';
  };
  const found = [];
  for (const el of document.querySelectorAll('body *')) {
    const ownText = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).join('');
    if (!ownText || hidden(el)) continue;
    const bg = background(el);
    const fg = over(rgba(getComputedStyle(el).color), bg);
    const [l1, l2] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
    const ratio = (l1 + 0.05) / (l2 + 0.05);
    if (ratio < 4.5) {
      found.push({
        text: ownText.slice(0, 40),
        className: String(el.className),
        color: 'rgb(' + fg.slice(0, 3).join(',') + ')',
        background: 'rgb(' + bg.slice(0, 3).join(',') + ')',
        ratio: Math.round(ratio * 100) / 100,
      });
    }
  }
  return found;
})()`;

/** Every text of the page below 4.5:1 against its background, in the current colour scheme. */
export async function lowContrast(page: Page): Promise<LowContrast[]> {
  return page.evaluate<LowContrast[]>(MEASURE);
}
