/**
 * The demo's only source of chance: a small seeded generator (sfc32, seeded by the cyrb128 hash of a
 * text seed). Every choice, amount and id of the demo comes from one of these, so the same
 * (date, seed, scale) always gives the same books. Named forks give each organisation and purpose
 * its own stream, so adding volume to one organisation does not shift the others.
 */
import { newId } from '../store/ids.js';

/** 128 bits of a string, as four unsigned 32-bit words. */
export function hashText(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(readonly seed: string) {
    [this.a, this.b, this.c, this.d] = hashText(seed);
    // the first outputs of sfc32 still echo the seed words
    for (let i = 0; i < 15; i++) this.uint32();
  }

  /** An independent stream for one purpose, fixed by this stream's seed and the label. */
  fork(label: string): Random {
    return new Random(`${this.seed}/${label}`);
  }

  uint32(): number {
    const t0 = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    const t = (t0 + this.d) | 0;
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** [0, 1) */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** An integer from min to max, both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A whole count whose average is `mean`: its integer part, plus one with the fraction's chance. */
  count(mean: number): number {
    const whole = Math.floor(mean);
    return whole + (this.chance(mean - whole) ? 1 : 0);
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      const word = this.uint32();
      for (let j = 0; j < 4 && i + j < n; j++) out[i + j] = (word >>> (8 * j)) & 255;
    }
    return out;
  }
}

/** Ids in the service's usual format (see store/ids.ts), drawn from a seeded stream. */
export function seededIds(rng: Random): (prefix: string) => string {
  return (prefix) => newId(prefix, (n) => rng.bytes(n));
}
