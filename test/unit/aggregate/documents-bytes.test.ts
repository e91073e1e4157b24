import { describe, expect, it } from 'vitest';
import { readNodeDocumentBytes, readNodeDocumentBytesInTurns, readNodeDocuments, type NodeDocument } from '../../../src/aggregate/documents.js';
import { clusterNode, demoReport } from '../../helpers/node-reports.js';

const healthy = demoReport('a2-healthy');
const a = clusterNode(healthy, 0);
const b = clusterNode(healthy, 1);
const c = clusterNode(healthy, 2);
const line = (value: unknown) => JSON.stringify(value);

function outcome(read: () => NodeDocument[]): NodeDocument[] | string {
  try {
    return read();
  } catch (error) {
    return (error as Error).message;
  }
}

async function outcomeOf(read: () => Promise<NodeDocument[]>): Promise<NodeDocument[] | string> {
  try {
    return await read();
  } catch (error) {
    return (error as Error).message;
  }
}

describe('reading reports from bytes (standard input)', () => {
  it('gives what reading the text gives: the documents with their names, or the same first error; in turns too', async () => {
    const inputs = [
      `${line(a)}\n${line(b)}\n${line(c)}\n`,
      `\uFEFF${line(a)}\r\n\r\n${line(b)}`,
      `${line([a, b])}\n${line(c)}\n`,
      `${line([])}\n${line(a)}\n`,
      `${line([])}\n${line([])}\n`,
      `${line(a)}\n`,
      `${line([a, b])}\n`,
      JSON.stringify(a, null, 2),
      `${line(a)}${line(b)}`,
      `${line(a)}\n${line({ ...b, checks: [{ ...b.checks[0], status: 'green' }] })}\n${line({ hello: 'world' })}\n`,
      `${line({ hello: 'world' })}\n${line(a)}\n{"broken": \n`,
      `${line(a)}\nqprep: error: boom\n`,
      ' \n\n',
      '',
    ];
    for (const [source, text] of inputs.flatMap((t) => [['-', t] as const, ['all.ndjson', t] as const])) {
      const expected = outcome(() => readNodeDocuments({ source, text }));
      expect(outcome(() => readNodeDocumentBytes(source, new Uint8Array(Buffer.from(text, 'utf8')))), `${source}: ${text.slice(0, 60)}`).toEqual(expected);
      const inTurns = await outcomeOf(() => readNodeDocumentBytesInTurns(source, Buffer.from(text, 'utf8'), async () => undefined));
      expect(inTurns, `in turns, ${source}: ${text.slice(0, 60)}`).toEqual(expected);
    }
    // a turn after each report of a stream: three lines, three turns
    let turns = 0;
    await readNodeDocumentBytesInTurns('-', Buffer.from(inputs[0]!), async () => void turns++);
    expect(turns).toBe(3);
    expect((outcome(() => readNodeDocumentBytes('-', Buffer.from(inputs[0]!))) as NodeDocument[]).map((d) => d.source)).toEqual(['stdin#1', 'stdin#2', 'stdin#3']);
  });
});
