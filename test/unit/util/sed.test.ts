import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sedLineEdit } from '../../../src/util/sed.js';

describe('sed line edits', () => {
  it('edit exactly the line and the text named, whatever characters they hold', () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-sed-'));
    const file = join(dir, "it's run.sh");
    writeFileSync(file, 'a=1.2.3.4\nproxy="http://141.xx.xx.1:8080" & [x]\nproxy="http://141.xx.xx.1:8080"\n');
    const command = sedLineEdit(file, 2, '141.xx.xx.1', '10.0.0.1/24 & \\n');
    expect(command).toBeDefined();
    execFileSync('sh', ['-c', command!]);
    expect(readFileSync(file, 'utf8')).toBe('a=1.2.3.4\nproxy="http://10.0.0.1/24 & \\n:8080" & [x]\nproxy="http://141.xx.xx.1:8080"\n');
  });

  it('says nothing it cannot say on one line', () => {
    expect(sedLineEdit('run.sh', 3, '', 'x')).toBeUndefined();
    expect(sedLineEdit('run.sh', 3, 'a\nb', 'x')).toBeUndefined();
    expect(sedLineEdit('run.sh', 0, 'a', 'x')).toBeUndefined();
    expect(sedLineEdit('run.sh', 3, 'xxx', 'eth0')).toBe("sed -i '3s/xxx/eth0/' run.sh");
  });
});
