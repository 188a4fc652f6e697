/** RGB with channels in 0..255 (floats, so blending does not lose precision before the final quantise). */
export type Rgb = readonly [number, number, number];

export function hex(value: number): Rgb {
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

export function scale(color: Rgb, factor: number): Rgb {
  return [color[0] * factor, color[1] * factor, color[2] * factor];
}

export function luminance(color: Rgb): number {
  return 0.2126 * color[0] + 0.7152 * color[1] + 0.0722 * color[2];
}

/** Moves the hue toward `tint` while keeping brightness, so "red sky" stays a sky of the same lightness. */
export function tintToward(color: Rgb, tint: Rgb, amount: number): Rgb {
  const target = scale(tint, luminance(color) / Math.max(1, luminance(tint)));
  return mix(color, target, amount);
}

/** Rotates hue about the grey axis (the standard YIQ-style rotation matrix). */
export function rotateHue(color: Rgb, degrees: number): Rgb {
  const angle = (degrees * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const k = 1 / 3;
  const s = Math.sqrt(k);
  const m0 = cos + (1 - cos) * k;
  const m1 = k * (1 - cos) - s * sin;
  const m2 = k * (1 - cos) + s * sin;
  const [r, g, b] = color;
  return [r * m0 + g * m1 + b * m2, r * m2 + g * m0 + b * m1, r * m1 + g * m2 + b * m0];
}
