import { describe, expect, it } from 'vitest';
import check from '../../../checks/net.ports.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

const HEADER = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
// 0.0.0.0:8000 LISTEN inode 4242; 127.0.0.1:60003 LISTEN inode 4343; an ESTABLISHED socket on 8000 is not a listener
const TCP =
  HEADER +
  '   0: 00000000:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000000000000000 100 0 0 10 0\n' +
  '   1: 0100007F:EA63 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4343 1 0000000000000000 100 0 0 10 0\n' +
  '   2: 0100007F:9C40 0100007F:1F40 01 00000000:00000000 00:00000000 00000000     0        0 4444 1 0000000000000000 100 0 0 10 0\n';
const IDLE = `${HEADER}   0: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 11 1 0000000000000000 100 0 0 10 0\n`;

describe('net.ports', () => {
  it('passes when the API port and the HCCL range are free', async () => {
    const { outcome } = await runOn(check, { files: { '/proc/net/tcp': IDLE, '/proc/net/tcp6': HEADER } });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('ports 8000,60000-60015 are free');
  });

  it('fails naming the port, the address and the owning process', async () => {
    const { outcome, result } = await runOn(check, {
      files: {
        '/proc/net/tcp': TCP,
        '/proc/net/tcp6': HEADER,
        '/proc/77/fd/3': { kind: 'symlink', target: 'socket:[4242]' },
        '/proc/77/comm': 'python3\n',
        '/proc/88/fd/5': { kind: 'symlink', target: 'socket:[4343]' },
        '/proc/88/comm': 'hccl_test\n',
      },
    });
    expect(outcome.status).toBe('fail');
    expect(result.status).toBe('fail');
    expect(outcome.message).toBe('2 of the ports vLLM/HCCL need are in use: 8000 (0.0.0.0, pid 77 python3), 60003 (127.0.0.1, pid 88 hccl_test)');
    expect(outcome.remediation).toContain('kill 77');
    expectRemediation(outcome);
  });

  it('says when the owner is not visible (another PID namespace)', async () => {
    const { outcome } = await runOn(check, { files: { '/proc/net/tcp': TCP, '/proc/net/tcp6': HEADER } });
    expect(outcome.message).toContain('owner not visible');
    expect(outcome.remediation).toContain('ss -ltnp');
  });

  it('moves the HCCL range with HCCL_IF_BASE_PORT', async () => {
    const { outcome } = await runOn(check, { env: { HCCL_IF_BASE_PORT: '55000' }, files: { '/proc/net/tcp': TCP, '/proc/net/tcp6': HEADER } }, { host: { ports: [9000] } });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('ports 9000,55000-55015 are free');
  });

  it('is an error when /proc/net/tcp cannot be read', async () => {
    const { outcome } = await runOn(check, { files: {} });
    expect(outcome.status).toBe('error');
    expectRemediation(outcome);
  });
});

describe('net.ports in Chinese', () => {
  it('free ports, busy ports and an unreadable /proc/net/tcp in Chinese; the kill command intact', async () => {
    const free = await runOn(check, { files: { '/proc/net/tcp': IDLE, '/proc/net/tcp6': HEADER } }, {}, { lang: 'zh' });
    expect(free.outcome.message).toBe('端口 8000,60000-60015 均空闲');
    const busy = {
      files: {
        '/proc/net/tcp': TCP,
        '/proc/net/tcp6': HEADER,
        '/proc/77/fd/3': { kind: 'symlink' as const, target: 'socket:[4242]' },
        '/proc/77/comm': 'python3\n',
      },
    };
    const english = await runOn(check, busy);
    const chinese = await runOn(check, busy, {}, { lang: 'zh' });
    expect(chinese.outcome.message).toBe('vLLM/HCCL 所需的端口中有 2 个已被占用：8000（0.0.0.0，pid 77 python3）；60003（127.0.0.1，看不到占用者）');
    expectChineseTwin(english.outcome, chinese.outcome, ['kill 77', '--data-parallel-rpc-port']);
    const unreadable = await runOn(check, { files: {} }, {}, { lang: 'zh' });
    expect(unreadable.outcome).toMatchObject({ status: 'error', message: '无法读取监听中的 socket：/proc/net/tcp：文件或目录不存在' });
  });
});
