import { execa } from 'execa';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type TaskStatus = 'ok' | 'changed' | 'failed' | 'skipping' | 'fatal';

export interface PlayRun {
  exitCode: number;
  output: string;
  /** per task name (as printed, "qprep : Copy ..."), the status of each host */
  tasks: Map<string, Map<string, TaskStatus>>;
  /** the message of each host's failure */
  failures: Map<string, string>;
  recap: Map<string, { ok: number; changed: number; unreachable: number; failed: number; skipped: number }>;
}

/**
 * Reads the default callback's screen output: TASK headers, one status line per host
 * ("changed: [node1]", "ok: [node1 -> localhost]", "fatal: [node7]: FAILED! => {json}"),
 * and the PLAY RECAP.
 */
export function parsePlayOutput(output: string): Omit<PlayRun, 'exitCode' | 'output'> {
  const tasks = new Map<string, Map<string, TaskStatus>>();
  const failures = new Map<string, string>();
  const recap: PlayRun['recap'] = new Map();
  let task: Map<string, TaskStatus> | undefined;
  for (const line of output.split('\n')) {
    const header = /^TASK \[(.+)\] \*+$/.exec(line);
    if (header) {
      task = new Map();
      tasks.set(header[1]!, task);
      continue;
    }
    const status = /^(ok|changed|failed|skipping|fatal): \[([^\]\s]+)(?: -> [^\]]+)?\]/.exec(line);
    if (status && task) {
      const host = status[2]!;
      const value = status[1] as TaskStatus;
      // a loop prints one line per item: the host's task is changed when any item is
      const previous = task.get(host);
      if (!(previous === 'changed' && value === 'ok')) task.set(host, value);
      const json = /=> (\{.*\})\s*$/.exec(line);
      if ((value === 'fatal' || value === 'failed') && json) failures.set(host, (JSON.parse(json[1]!) as { msg?: string }).msg ?? json[1]!);
    }
    const totals = /^(\S+)\s+: ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)\s+skipped=(\d+)/.exec(line);
    if (totals) {
      const [, host, ok, changed, unreachable, failed, skipped] = totals;
      recap.set(host!, { ok: Number(ok), changed: Number(changed), unreachable: Number(unreachable), failed: Number(failed), skipped: Number(skipped) });
    }
  }
  return { tasks, failures, recap };
}

/**
 * Runs the real ansible-playbook with a clean, private configuration: no user or system
 * ansible.cfg, temporary files and ~/.ansible under `work`, plain screen output.
 */
export async function ansiblePlaybook(args: string[], work: string): Promise<PlayRun> {
  const home = join(work, 'home');
  mkdirSync(home, { recursive: true });
  const config = join(work, 'ansible.cfg');
  writeFileSync(config, '[defaults]\n');
  const result = await execa('ansible-playbook', args, {
    reject: false,
    extendEnv: false,
    cwd: work,
    timeout: 600_000,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      // Ansible refuses to start without a UTF-8 locale
      LC_ALL: 'C.UTF-8',
      LANG: 'C.UTF-8',
      ANSIBLE_CONFIG: config,
      ANSIBLE_NOCOLOR: '1',
      ANSIBLE_FORCE_COLOR: '0',
      ANSIBLE_STDOUT_CALLBACK: 'default',
      ANSIBLE_RETRY_FILES_ENABLED: '0',
      ANSIBLE_LOCAL_TEMP: join(work, 'ansible-local'),
      ANSIBLE_REMOTE_TEMP: join(work, 'ansible-remote'),
      ANSIBLE_PYTHON_INTERPRETER: 'auto_silent',
      ANSIBLE_DEPRECATION_WARNINGS: '0',
      // one process per task and host instead of a copied module file: the same result, faster
      ANSIBLE_PIPELINING: '1',
    },
  });
  const output = `${String(result.stdout)}\n${String(result.stderr)}`;
  return { exitCode: result.exitCode ?? -1, output, ...parsePlayOutput(String(result.stdout)) };
}
