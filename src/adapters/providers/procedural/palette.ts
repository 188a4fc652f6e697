import { hex, luminance, mix, rotateHue, scale, tintToward, type Rgb } from './color.js';
import { clamp } from './noise.js';
import type { Scene, TimeOfDay } from './scene.js';

export interface Palette {
  skyTop: Rgb;
  skyMid: Rgb;
  horizon: Rgb;
  /** Sun or moon disc. */
  disc: Rgb;
  glow: Rgb;
  cloudLit: Rgb;
  cloudShade: Rgb;
  haze: Rgb;
  water: Rgb;
  /** Ground colour of the farthest and the nearest ridge, already lit for the time of day. */
  landFar: Rgb;
  landNear: Rgb;
  snow: Rgb;
  /** Conifer colour: trees stay dark green even on snowy ground. */
  foliage: Rgb;
  building: Rgb;
  window: Rgb;
  /** Share of city windows lit. */
  windowsLit: number;
  nebulaA: Rgb;
  nebulaB: Rgb;
}

interface Light {
  skyTop: number;
  skyMid: number;
  horizon: number;
  disc: number;
  glow: number;
  cloudLit: number;
  cloudShade: number;
  water: number;
  /** Ground is multiplied by `level`, then pulled toward `tint` by `tintAmount` (dusk and night flatten it). */
  level: number;
  /** Snow reflects far more than rock or grass, so it keeps more light at dusk and under the moon. */
  snowLevel: number;
  /** Snow takes the colour of the light more visibly than dark ground: alpenglow at dusk, blue under the moon. */
  snowTint: number;
  tint: number;
  tintAmount: number;
}

const LIGHTS: Record<TimeOfDay, Light> = {
  day: {
    skyTop: 0x2a66b8,
    skyMid: 0x6fa6de,
    horizon: 0xd2e4f0,
    disc: 0xfffbea,
    glow: 0xfff0cc,
    cloudLit: 0xffffff,
    cloudShade: 0xa9b9cf,
    water: 0x235f8f,
    level: 1,
    snowLevel: 1,
    snowTint: 0xe8f0ff,
    tint: 0x000000,
    tintAmount: 0,
  },
  sunset: {
    skyTop: 0x262a66,
    skyMid: 0xc25a78,
    horizon: 0xffb25e,
    disc: 0xfff0c0,
    glow: 0xff9a48,
    cloudLit: 0xffb07a,
    cloudShade: 0x5e3562,
    water: 0x2e2852,
    level: 0.5,
    snowLevel: 0.8,
    snowTint: 0xf0a8b8,
    tint: 0x4a2448,
    tintAmount: 0.5,
  },
  dawn: {
    skyTop: 0x4660a4,
    skyMid: 0xd89cb0,
    horizon: 0xffdcb0,
    disc: 0xfff6e0,
    glow: 0xffc89a,
    cloudLit: 0xfff0e4,
    cloudShade: 0x8e80a8,
    water: 0x4a5a8c,
    level: 0.72,
    snowLevel: 0.9,
    snowTint: 0xe0c8e8,
    tint: 0x7a6a96,
    tintAmount: 0.3,
  },
  night: {
    skyTop: 0x02040f,
    skyMid: 0x0a1430,
    horizon: 0x22335a,
    disc: 0xf2f0e2,
    glow: 0x5a70a0,
    cloudLit: 0x6a7898,
    cloudShade: 0x121a30,
    water: 0x08122a,
    level: 0.28,
    snowLevel: 0.5,
    snowTint: 0x6a80c0,
    tint: 0x0e1836,
    tintAmount: 0.55,
  },
};

const TERRAIN: Record<string, readonly [number, number]> = {
  mountains: [0x6d8296, 0x2f4a2e],
  hills: [0x7ea66e, 0x3d7a34],
  dunes: [0xd9a468, 0xe6b676],
  none: [0x6d8296, 0x2f4a2e],
  snow: [0xc9d4e4, 0xeef2f8],
  forest: [0x4f6e5a, 0x1e3a24],
  city: [0x6a7480, 0x3a4048],
};

export function buildPalette(scene: Scene): Palette {
  const light = LIGHTS[scene.time];
  const storm = scene.storm;
  const tintAmount = clamp(0.45 * scene.strength, 0, 0.8);
  const skyTint = averageTint(scene.tints.sky);
  const groundTint = averageTint(scene.tints.ground);
  const waterTint = averageTint(scene.tints.water);
  const adjust = (value: number, tint: Rgb | undefined, share: number): Rgb => {
    let color = rotateHue(hex(value), scene.hueShift);
    if (storm) color = mix(color, scale([0.95, 0.97, 1.05], luminance(color) * 0.8), 0.6);
    if (tint !== undefined) color = tintToward(color, tint, Math.min(0.85, tintAmount * share));
    return scale(color, scene.brightness);
  };
  // Scene-wide colours steer the sky most; the ground keeps more of its own colour so it still reads as ground.
  const sky = (value: number, share = 1): Rgb => adjust(value, skyTint, share);
  const biome = scene.snow
    ? 'snow'
    : scene.terrain === 'dunes'
      ? 'dunes'
      : scene.forest
        ? 'forest'
        : scene.city && scene.terrain !== 'mountains'
          ? 'city'
          : scene.terrain;
  const [far, near] = TERRAIN[biome] ?? [0x6d8296, 0x2f4a2e];
  const ground = (value: number, snowy = false): Rgb => {
    const level = snowy ? light.snowLevel : light.level;
    const lit = snowy ? tintToward(scale(hex(value), level), hex(light.snowTint), 0.45) : mix(scale(hex(value), level), hex(light.tint), light.tintAmount);
    return groundTint === undefined ? sky(rgbToInt(lit), 0.45) : adjust(rgbToInt(lit), groundTint, 1.8);
  };
  const space = scene.space;
  return {
    skyTop: space ? sky(0x020208) : sky(light.skyTop),
    skyMid: space ? sky(0x080620) : sky(light.skyMid),
    horizon: space ? sky(0x1c0e34) : sky(light.horizon),
    disc: hex(light.disc),
    glow: sky(light.glow, 0.6),
    cloudLit: sky(light.cloudLit, 0.7),
    cloudShade: sky(light.cloudShade),
    haze: space ? sky(0x2a1a44) : sky(light.horizon, 0.8),
    water: waterTint === undefined ? sky(light.water) : adjust(light.water, waterTint, 2),
    landFar: ground(far, scene.snow),
    landNear: ground(near, scene.snow),
    snow: ground(0xf4f7fc, true),
    foliage: ground(scene.terrain === 'hills' && !scene.snow ? 0x2a5a28 : 0x1c3622),
    building: ground(scene.time === 'day' ? 0x8a96a6 : 0x2a2e3a),
    window: scene.time === 'day' ? hex(0xbcd6ee) : hex(0xffd88a),
    windowsLit: scene.time === 'night' ? 0.45 : scene.time === 'day' ? 0.35 : 0.25,
    nebulaA: sky(0x8a3ac0),
    nebulaB: sky(0x2a9ac8),
  };
}

function averageTint(tints: readonly Rgb[]): Rgb | undefined {
  if (tints.length === 0) return undefined;
  const sum = tints.reduce<[number, number, number]>((acc, c) => [acc[0] + c[0], acc[1] + c[1], acc[2] + c[2]], [0, 0, 0]);
  return scale(sum, 1 / tints.length);
}

function rgbToInt(color: Rgb): number {
  const channel = (v: number): number => Math.round(clamp(v, 0, 255));
  return (channel(color[0]) << 16) | (channel(color[1]) << 8) | channel(color[2]);
}
