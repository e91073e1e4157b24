import { readFileSync } from 'node:fs';

/** A capture of ../fixtures/ascend, byte for byte. */
export function ascendFixture(name: string): string {
  return readFileSync(new URL(`../fixtures/ascend/${name}`, import.meta.url), 'utf8');
}

/** A derived input of ../fixtures/synthetic (see its README for what was changed). */
export function syntheticFixture(name: string): string {
  return readFileSync(new URL(`../fixtures/synthetic/${name}`, import.meta.url), 'utf8');
}

export function fixturePath(folder: 'ascend' | 'synthetic', name: string): string {
  return new URL(`../fixtures/${folder}/${name}`, import.meta.url).pathname;
}
