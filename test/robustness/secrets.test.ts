import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { guideScript } from '../helpers/launch.js';
import { fakeBin, healthyNpuSmi, hostTree, qprepWith, tmp, type CliRun } from './support.js';

/*
 * One secret of every class the redaction policy covers, planted in the launch script and in
 * the environment qprep runs with; then every byte qprep writes (stdout, stderr and --output
 * in every format, the snapshot, and the replay of that snapshot in every format) is searched
 * for each of them. Each secret is a distinct marker, so a failure names the class that leaked.
 */

const SCRIPT_SECRETS = {
  'a secret-named export': 'SCRIPTHFTOKEN4711',
  'MYSQL_PWD': 'SCRIPTMYSQLPWD4712',
  '--api-key (given twice, so that launch.flags quotes it)': 'SCRIPTAPIKEY4713',
  'the second --api-key': 'SCRIPTAPIKEYB4714',
  '--hf-token': 'SCRIPTHFFLAG4715',
  'a password inside a JSON flag value': 'SCRIPTJSONPW4716',
  'a token inside a JSON flag value': 'SCRIPTJSONTOKEN4717',
  'a Bearer header': 'SCRIPTBEARER4718',
  'a webhook URL': 'SCRIPTWEBHOOK4719',
  'URL credentials inside a value': 'SCRIPTURLPW4720',
  'a JVM -Dpassword option': 'SCRIPTJAVAPW4721',
} as const;

const ENV_SECRETS = {
  SESSION: 'ENVSESSION4731',
  COOKIE: 'ENVCOOKIE4732',
  KUBECONFIG_DATA: 'ENVKUBECONFIG4733',
  JAVA_TOOL_OPTIONS: 'ENVJAVAOPTS4734',
  'URL credentials not at the start of a value': 'ENVURLPW4735',
  'a Bearer header in a value': 'ENVBEARER4736',
  MYSQL_PWD: 'ENVMYSQLPWD4737',
  'a webhook URL in a value': 'ENVWEBHOOK4738',
} as const;

const S = SCRIPT_SECRETS;
/** The guide's single-node script (byte for byte) with the secrets a real one carries added. */
function plantedScript(): string {
  const guide = guideScript('qwen3.5-4b-310p.sh');
  return guide
    .replace(
      '# Load model from ModelScope',
      [
        `export HF_TOKEN=${S['a secret-named export']}`,
        `export MYSQL_PWD="${S['MYSQL_PWD']}"`,
        `export ALERT_URL=https://hooks.slack.com/services/T0000/B0000/${S['a webhook URL']}`,
        `export PIP_INSTALL_OPTIONS="--index-url=https://deploy:${S['URL credentials inside a value']}@mirror.example/simple"`,
        `export JAVA_TOOL_OPTIONS="-Xmx1g -Dpassword=${S['a JVM -Dpassword option']}"`,
        `curl -fsS -H "Authorization: Bearer ${S['a Bearer header']}" https://registry.example/v2/ || true`,
        '# Load model from ModelScope',
      ].join('\n'),
    )
    .replace(
      '--port 1025 \\',
      [
        '--port 1025 \\',
        `--api-key ${S['--api-key (given twice, so that launch.flags quotes it)']} \\`,
        `--hf-token=${S['--hf-token']} \\`,
        `--kv-transfer-config '{"kv_connector": "MooncakeConnectorV1", "kv_role": "kv_both", "password": "${S['a password inside a JSON flag value']}", "api_token": "${S['a token inside a JSON flag value']}"}' \\`,
        `--api-key "${S['the second --api-key']}" \\`,
      ].join('\n'),
    );
}

function plantedEnv(): Record<string, string> {
  const E = ENV_SECRETS;
  return {
    SESSION: E.SESSION,
    COOKIE: `sid=${E.COOKIE}`,
    KUBECONFIG_DATA: E.KUBECONFIG_DATA,
    JAVA_TOOL_OPTIONS: `-Dhttps.proxyPassword=${E.JAVA_TOOL_OPTIONS}`,
    PIP_INSTALL_OPTIONS: `--trusted-host mirror --index-url=https://ci:${E['URL credentials not at the start of a value']}@mirror.example/simple`,
    CURL_EXTRA_HEADERS: `Accept: */*; Authorization: Bearer ${E['a Bearer header in a value']}`,
    MYSQL_PWD: E.MYSQL_PWD,
    ALERTS: `slack=https://hooks.slack.com/services/T1/B1/${E['a webhook URL in a value']}`,
    https_proxy: 'http://proxy.example:3128',
  };
}

const ALL = { ...SCRIPT_SECRETS, ...ENV_SECRETS };

/** Every planted secret found in `text`, by class. */
function leaks(text: string): string[] {
  return Object.entries(ALL)
    .filter(([, secret]) => text.includes(secret))
    .map(([name]) => name);
}

const FORMATS = ['human', 'json', 'junit', 'prometheus'] as const;

let root: string;
let bin: string;
let dir: string;
let launch: string;

beforeAll(() => {
  root = hostTree();
  bin = fakeBin({ 'npu-smi': healthyNpuSmi() });
  dir = tmp('secrets');
  launch = join(dir, 'launch.sh');
  writeFileSync(launch, plantedScript());
});

function written(run: CliRun): string {
  return `${run.stdout}\n${run.stderr}`;
}

describe('secrets in the launch script and the environment', () => {
  it('the planted script is read as a launch script (the test exercises what a real one would)', async () => {
    const run = await qprepWith(bin, ['check', '--root', root, '--launch', launch, '--only', 'launch.script,launch.flags', '--format', 'json'], plantedEnv());
    const report = JSON.parse(run.stdout) as { checks: Array<{ id: string; status: string; message: string }> };
    const flags = report.checks.find((c) => c.id === 'launch.flags')!;
    // the duplicate --api-key is reported, and it is the message that would quote the values
    expect(flags.message).toContain('--api-key is given twice with different values');
    expect(report.checks.find((c) => c.id === 'launch.script')!.status).toBe('pass');
  });

  it('no format of check, on stdout, stderr or in --output, holds any of them', async () => {
    for (const format of FORMATS) {
      const output = join(dir, `report-${format}.out`);
      const printed = await qprepWith(bin, ['check', '--root', root, '--launch', launch, '--format', format, '--no-color'], plantedEnv());
      expect(printed.exitCode, printed.stderr).toBeLessThan(2);
      expect(leaks(written(printed)), `check --format ${format}`).toEqual([]);
      const toFile = await qprepWith(bin, ['check', '--root', root, '--launch', launch, '--format', format, '--output', output], plantedEnv());
      expect(leaks(written(toFile)), `check --format ${format} --output`).toEqual([]);
      expect(leaks(readFileSync(output, 'utf8')), `the --output file of --format ${format}`).toEqual([]);
    }
  });

  it('the snapshot holds none of them (script, environment, command outputs, the embedded report), and neither does its replay', async () => {
    const snapshot = join(dir, 'snapshot.json');
    const recorded = await qprepWith(bin, ['snapshot', '--root', root, '--launch', launch, '-o', snapshot], plantedEnv());
    expect(recorded.exitCode, recorded.stderr).toBe(0);
    expect(leaks(written(recorded)), 'snapshot stdout/stderr').toEqual([]);
    const stored = readFileSync(snapshot, 'utf8');
    expect(leaks(stored), 'the snapshot file').toEqual([]);
    // still a launch script that a replay judges: the lines stay where they were
    const document = JSON.parse(stored) as { launch: { text: string }; env: Record<string, string> };
    expect(document.launch.text.split('\n').length).toBe(plantedScript().split('\n').length);
    expect(document.env).toMatchObject({ SESSION: '***', KUBECONFIG_DATA: '***', https_proxy: 'http://proxy.example:3128' });
    for (const format of FORMATS) {
      const replay = await qprepWith(null, ['check', '--snapshot', snapshot, '--format', format, '--no-color']);
      expect(replay.exitCode, replay.stderr).toBeLessThan(2);
      expect(leaks(written(replay)), `replay --format ${format}`).toEqual([]);
    }
    expect(readdirSync(dir).length).toBeGreaterThan(FORMATS.length);
  });
});

/*
 * The support bundle of a hostile host kept 13 secrets: the credential flags of common tools,
 * auth headers, a key inside a quoted connection string, an inline Python environment
 * assignment, a bare token and names the rule did not know. They are planted in the two-node
 * guide's script (its interface and address filled in, as an operator would) and in the
 * environment; the snapshot must hold none of them, and a replay of it must judge every check
 * as the recording did: the model, ports, addresses and device lists the checks read survive.
 */
const HOSTILE = {
  'curl -u': 'HOSTCURLPW1001',
  'sshpass -p': 'HOSTSSHPASS1002',
  'mysql -pPW': 'HOSTMYSQLPW1003',
  'docker login -p': 'HOSTDOCKERPW1004',
  'X-Api-Key:': 'HOSTXAPIKEY1005',
  'Cookie:': 'HOSTCOOKIE1006',
  'AccountKey= in a quoted export': 'HOSTACCOUNTKEY1007',
  "os.environ['HF_TOKEN']=": 'HOSTHFPY1008',
  'a bare ghp_ token': 'ghp_H0sT1lEbArEt0kEn9aB3dE5gH7jK9mN1pQ3r',
  'DB_PW in the script': 'HOSTDBPW1010',
  'X_CREDS in the script': 'HOSTXCREDS1011',
  'GITLAB_CI_JOB_JWT_V2 in the script': 'HOSTGLJWT1012',
  'DB_PW in the environment': 'HOSTENVDBPW1013',
  'X_CREDS in the environment': 'HOSTENVXCREDS1014',
  'GITLAB_CI_JOB_JWT_V2 in the environment': 'HOSTENVGLJWT1015',
  'a credential command in the environment': 'HOSTENVMYSQLPW1016',
} as const;

function hostileScript(): string {
  const H = HOSTILE;
  return guideScript('qwen3.5-397b-w8a8-a2-node0.sh')
    .replace('nic_name="xxxx"', 'nic_name="enp189s0f0"')
    .replace('local_ip="xxxx"', 'local_ip="10.0.0.11"')
    .replace(
      'export TASK_QUEUE_ENABLE=1',
      [
        'export TASK_QUEUE_ENABLE=1',
        `curl -fsS -u deploy:${H['curl -u']} https://mirror.example/simple/ >/dev/null`,
        `sshpass -p ${H['sshpass -p']} ssh -p 2222 root@10.0.0.12 "bash /root/run_node1.sh"`,
        `mysql -uroot -p${H['mysql -pPW']} -h 10.0.0.3 metrics -e 'select 1'`,
        `docker login -u bot -p ${H['docker login -p']} registry.example`,
        `docker run -d -p 9105:9105 --device /dev/davinci0 registry.example/qprep:0.1.0`,
        `curl -H "X-Api-Key: ${H['X-Api-Key:']}" -H 'Cookie: sid=${H['Cookie:']}' https://api.example/v1/models`,
        `export AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acc;AccountKey=${H['AccountKey= in a quoted export']};EndpointSuffix=core.windows.net"`,
        `python3 -c "import os; os.environ['HF_TOKEN']='${H["os.environ['HF_TOKEN']="]}'; print(1)"`,
        `git clone https://github.com/org/repo.git --config http.extraHeader="X: ${H['a bare ghp_ token']}" /tmp/repo || true`,
        `export DB_PW=${H['DB_PW in the script']}`,
        `export X_CREDS=${H['X_CREDS in the script']}`,
        `export GITLAB_CI_JOB_JWT_V2=${H['GITLAB_CI_JOB_JWT_V2 in the script']}`,
      ].join('\n'),
    );
}

describe('the 13 secrets a hostile host planted in the support bundle, and their families', () => {
  it('the snapshot holds none of them; its replay judges every check as the recording did', async () => {
    const H = HOSTILE;
    const hostileDir = tmp('secrets-hostile');
    const script = join(hostileDir, 'launch.sh');
    writeFileSync(script, hostileScript());
    const env = {
      DB_PW: H['DB_PW in the environment'],
      X_CREDS: H['X_CREDS in the environment'],
      GITLAB_CI_JOB_JWT_V2: H['GITLAB_CI_JOB_JWT_V2 in the environment'],
      BACKUP_CMD: `mysqldump -uroot -p${H['a credential command in the environment']} metrics`,
      ASCEND_RT_VISIBLE_DEVICES: '0,1,2,3,4,5,6,7',
    };
    const snapshot = join(hostileDir, 'snapshot.json');
    const recorded = await qprepWith(bin, ['snapshot', '--root', root, '--launch', script, '-o', snapshot], env);
    expect(recorded.exitCode, recorded.stderr).toBe(0);
    const stored = readFileSync(snapshot, 'utf8');
    const kept = Object.entries(HOSTILE).filter(([, secret]) => stored.includes(secret) || recorded.stdout.includes(secret) || recorded.stderr.includes(secret));
    expect(kept.map(([what]) => what), 'secrets kept by the snapshot').toEqual([]);

    // the evidence stays: the interface and address, the model, the ports, the device list
    const document = JSON.parse(stored) as { launch: { text: string }; env: Record<string, string>; report: { checks: Array<{ id: string; status: string }> } };
    for (const evidence of ['nic_name="enp189s0f0"', 'local_ip="10.0.0.11"', 'vllm serve Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp', '--port 8000', '--data-parallel-rpc-port 13389', 'ssh -p 2222 root@10.0.0.12', 'docker run -d -p 9105:9105 --device /dev/davinci0', 'mysql -uroot -p*** -h 10.0.0.3 metrics']) {
      expect(document.launch.text, evidence).toContain(evidence);
    }
    expect(document.launch.text.split('\n').length).toBe(hostileScript().split('\n').length);
    expect(document.env).toMatchObject({ ASCEND_RT_VISIBLE_DEVICES: '0,1,2,3,4,5,6,7', DB_PW: '***', X_CREDS: '***', GITLAB_CI_JOB_JWT_V2: '***', BACKUP_CMD: 'mysqldump -uroot -p*** metrics' });

    const replay = await qprepWith(null, ['check', '--snapshot', snapshot, '--format', 'json']);
    expect(replay.exitCode, replay.stderr).toBeLessThan(2);
    expect(Object.entries(HOSTILE).filter(([, secret]) => replay.stdout.includes(secret)).map(([what]) => what)).toEqual([]);
    const statuses = (checks: Array<{ id: string; status: string }>) => Object.fromEntries(checks.map((c) => [c.id, c.status]));
    const replayed = JSON.parse(replay.stdout) as { checks: Array<{ id: string; status: string }> };
    expect(statuses(replayed.checks)).toEqual(statuses(document.report.checks));
    // the script was judged, not skipped: the launch checks read the redacted copy
    expect(statuses(replayed.checks)['launch.script']).toBe('pass');
  });
});
