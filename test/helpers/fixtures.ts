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

/**
 * One device's answer in a collection bundle (mind-cluster's npu_info_*.txt: each command line,
 * then its output, then a blank line): the lines after `hccn_tool -i <device> -<op> -g` up to the
 * blank line or the next command, each with its line feed, as the tool printed them.
 */
export function bundleAnswer(bundle: string, device: number, op: string): string {
  const lines = bundle.split('\n');
  const start = lines.findIndex((line) => line.trimEnd().endsWith(`hccn_tool -i ${device} -${op} -g`));
  if (start < 0) throw new Error(`no "hccn_tool -i ${device} -${op} -g" in the bundle`);
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || /hccn_tool -i \d+ -/.test(line)) break;
    out.push(line);
  }
  return `${out.join('\n')}\n`;
}
