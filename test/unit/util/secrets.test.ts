import { describe, expect, it } from 'vitest';
import { Redactor, redactEnvValue, redactMessage, redactScript } from '../../../src/util/redact.js';
import { CREDENTIAL_FLAGS, isSecret, TOKEN_FORMATS } from '../../../src/util/secrets.js';

/*
 * The redaction rule as a table: each row a line as a script, an environment value, a file or
 * a tool's output holds it, with the secret planted in it. The line goes through the policy
 * both as text that came in (a launch script) and as qprep's own words about it (the snapshot's
 * files and outputs, the report's strings); the secret must be gone from both, and the rest of
 * the line must stay as it was.
 */

/** Synthetic tokens of each form: random-looking, never real. */
const GHP = 'ghp_' + 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5';
const GITHUB_PAT = 'github_pat_' + '11ABCDEFG0abcdefghij12_' + 'x'.repeat(20) + 'Y'.repeat(19) + 'z1Z2z3Z4z5Z6z7Z8z9Z0';
const GLPAT = 'glpat-' + 'x1Y2z3A4b5C6d7E8f9G0';
const GLCBT = 'glcbt-' + '64_' + 'aB1cD2eF3gH4iJ5kL6mN';
const HF = 'hf_' + 'jCBaQngSHiHDRYOcsMcifUcysGyaiybUWz';
const AKIA = 'AKIA' + 'Q2W3E4R5T6Y7U2I3';
const XOXB = 'xoxb-' + '1234567890-1234567890123-aBcDeFgHiJkLmNoPqRsTuVwX';
const SK = 'sk-' + 'proj-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4';
const AIZA = 'AIza' + 'SyB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1w';
const AZURE = 'bP88' + 'Q~rcBcYjzzOhg1Hnn76Wm3jGgakZiZ.8vMgR';
const NPM = 'npm_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const JWT = 'eyJhbGciOiJSUzI1NiJ9' + '.eyJzdWIiOiJqb2JfMTIzNDU2In0' + '.c2lnbmF0dXJlLW9mLXRoZS1qb2Itand0LXRva2Vu';
const PEM = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----';

/** [what, the line with the secret, the secret] */
const SECRETS: Array<[string, string, string]> = [
  // the 13 a hostile host planted in the support bundle
  ['curl -u user:password', 'curl -fsS -u deploy:CURLPW1001 https://mirror.example/simple', 'CURLPW1001'],
  ['sshpass -p', 'sshpass -p SSHPASSPW1002 ssh root@10.0.0.2 hostname', 'SSHPASSPW1002'],
  ['mysql -pPASSWORD', 'mysql -uroot -pMYSQLPW1003 -h 10.0.0.3 metrics', 'MYSQLPW1003'],
  ['docker login -p', 'docker login -u bot -p DOCKERPW1004 registry.example', 'DOCKERPW1004'],
  ['an X-Api-Key header', 'curl -H "X-Api-Key: XAPIKEY1005" https://api.example/v1', 'XAPIKEY1005'],
  ['a Cookie header', "curl -H 'Cookie: sid=COOKIE1006; theme=dark' https://api.example/", 'COOKIE1006'],
  ['AccountKey= in a quoted export', 'export AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acc;AccountKey=ACCOUNTKEY1007==;EndpointSuffix=core.windows.net"', 'ACCOUNTKEY1007=='],
  ["os.environ['HF_TOKEN'] =", `python3 -c "import os; os.environ['HF_TOKEN'] = 'HFPY1008'; import vllm"`, 'HFPY1008'],
  ['a bare ghp_ token', `echo ${GHP} > /dev/null`, GHP],
  ['DB_PW', 'export DB_PW=DBPW1010', 'DBPW1010'],
  ['X_CREDS', 'export X_CREDS=XCREDS1011', 'XCREDS1011'],
  ['GITLAB_CI_JOB_JWT_V2', 'export GITLAB_CI_JOB_JWT_V2=GLJWT1012', 'GLJWT1012'],
  ['GITLAB_CI_JOB_JWT_V2 holding a JWT', `GITLAB_CI_JOB_JWT_V2=${JWT}`, JWT],
  // credential flags of common command-line tools
  ['curl -u glued', 'curl -uadmin:CURLGLUED2001 http://10.0.0.9/', 'CURLGLUED2001'],
  ['curl --user', 'curl --user admin:CURLUSER2002 http://10.0.0.9/', 'CURLUSER2002'],
  ['curl --proxy-user', 'curl --proxy-user p:CURLPROXY2003 -x http://proxy:3128 http://x/', 'CURLPROXY2003'],
  ['a path to curl', '/usr/bin/curl -u a:CURLPATH2004 http://x/', 'CURLPATH2004'],
  ['sshpass -pPASSWORD', 'sshpass -pSSHGLUED2005 scp a b:', 'SSHGLUED2005'],
  ['mysqldump -pPASSWORD', 'mysqldump -pDUMPPW2006 db', 'DUMPPW2006'],
  ['podman login -p', 'podman login --username bot -p PODMANPW2007 quay.example', 'PODMANPW2007'],
  ['helm registry login -p', 'helm registry login registry.example -u bot -p HELMPW2008', 'HELMPW2008'],
  ['docker login --password', 'docker login -u bot --password DOCKERLONG2009 r.example', 'DOCKERLONG2009'],
  ['redis-cli -a', 'redis-cli -h 10.0.0.4 -a REDISPW2010 ping', 'REDISPW2010'],
  ['ipmitool -P (the BMC)', 'ipmitool -I lanplus -H 10.0.0.250 -U admin -P IPMIPW2011 chassis status', 'IPMIPW2011'],
  ['ldapsearch -w', 'ldapsearch -x -D cn=admin -w LDAPPW2012 -b dc=example', 'LDAPPW2012'],
  ['smbclient -U user%password', 'smbclient //nas/models -U svc%SMBPW2013', 'SMBPW2013'],
  ['sqlcmd -P', 'sqlcmd -S db -U sa -P SQLCMDPW2014', 'SQLCMDPW2014'],
  ['mongosh -p', 'mongosh --host db -u admin -p MONGOPW2015', 'MONGOPW2015'],
  ['zip -P', 'zip -P ZIPPW2016 logs.zip /var/log/npu', 'ZIPPW2016'],
  ['7z -pPASSWORD', '7z a -pSEVENZPW2017 logs.7z /var/log/npu', 'SEVENZPW2017'],
  ['openssl -passin pass:', 'openssl rsa -in k.pem -passin pass:OPENSSLPW2018 -out k2.pem', 'OPENSSLPW2018'],
  ['ssh-keygen -N', 'ssh-keygen -t ed25519 -N KEYGENPW2019 -f id', 'KEYGENPW2019'],
  ['a credential command inside sh -c', "sh -c 'sshpass -p WRAPPEDPW2020 ssh node1 uptime'", 'WRAPPEDPW2020'],
  ['wget --password (its name)', 'wget --user=u --password=WGETPW2021 https://x/', 'WGETPW2021'],
  // auth headers
  ['Proxy-Authorization', 'curl -H "Proxy-Authorization: Basic UFJPWFlBVVRIMjAzMQ==" http://x/', 'UFJPWFlBVVRIMjAzMQ=='],
  ['PRIVATE-TOKEN (the GitLab API header)', 'curl --header "PRIVATE-TOKEN: GLHEADER3002" https://gitlab.example/api/v4/projects', 'GLHEADER3002'],
  ['X-Auth-Token', 'curl -H "X-Auth-Token: XAUTH3003" https://swift.example/', 'XAUTH3003'],
  ['Set-Cookie in a response dump', 'HTTP/1.1 200 OK\nSet-Cookie: session=SETCOOKIE3004; HttpOnly\n', 'SETCOOKIE3004'],
  ['Ocp-Apim-Subscription-Key', 'curl -H "Ocp-Apim-Subscription-Key: AZAPIM3005" https://api.cognitive.example/', 'AZAPIM3005'],
  ['a header in wget', 'wget --header="X-Api-Key: WGETHEADER3006" https://x/', 'WGETHEADER3006'],
  ['a secret-named YAML member', 'hf:\n  api_key: YAMLKEY3007\n', 'YAMLKEY3007'],
  // inline Python environment assignments
  ['os.environ["X"]=', 'os.environ["OPENAI_API_KEY"]="PYENV4001"', 'PYENV4001'],
  ['os.environ.setdefault', "os.environ.setdefault('HUGGING_FACE_HUB_TOKEN', 'PYENV4002')", 'PYENV4002'],
  ['os.putenv', "os.putenv('MODELSCOPE_API_TOKEN', \"PYENV4003\")", 'PYENV4003'],
  ['os.environ.update(NAME=...)', "os.environ.update(HF_TOKEN='PYENV4004')", 'PYENV4004'],
  ['a config dict subscript', "cfg['db_password'] = 'PYENV4005'", 'PYENV4005'],
  // names
  ['a _PW variable', 'ROOT_PW=NAMEPW5001 ./install.sh', 'NAMEPW5001'],
  ['a _PAT variable', 'export GITLAB_PAT=NAMEPAT5002', 'NAMEPAT5002'],
  ['a Huawei Cloud _SK variable', 'export HUAWEICLOUD_SDK_SK=NAMESK5003', 'NAMESK5003'],
  ['SSHPASS (sshpass -e)', 'SSHPASS=NAMESSHPASS5004 sshpass -e ssh node1', 'NAMESSHPASS5004'],
  ['a numbered key', 'export API_KEY_2=NAMEKEY5005', 'NAMEKEY5005'],
  ['SharedAccessKey in a connection string', "SB='Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=NAMESAK5006='", 'NAMESAK5006='],
  // token prefixes of the forges and clouds, bare
  ['GitHub ghp_', `token ${GHP}`, GHP],
  ['GitHub fine-grained github_pat_', `git clone https://x/${GITHUB_PAT}/repo`, GITHUB_PAT],
  ['GitLab glpat-', `GL=${GLPAT}`, GLPAT],
  ['GitLab glcbt-', `echo ${GLCBT}`, GLCBT],
  ['Hugging Face hf_', `huggingface-cli login --token-file /dev/null ${HF}`, HF],
  ['AWS AKIA', `aws_access_key_id = ${AKIA}`, AKIA],
  ['Slack xoxb-', `notify ${XOXB}`, XOXB],
  ['OpenAI-style sk-', `OPENAI_BASE=http://x ${SK}`, SK],
  ['Google AIza', `maps?key2=${AIZA}`, AIZA],
  ['Azure client secret', `client_id=x client_value=${AZURE}`, AZURE],
  ['npm npm_', `//registry.npmjs.org/:_authToken ${NPM}`, NPM],
  ['a JWT', `kubectl --server https://10.0.0.1:6443 get pods # ${JWT}`, JWT],
  ['a private key block', `KEY="${PEM}"`, 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ'],
];

/** Lines whose values are the evidence the checks read: nothing in them may go. */
const EVIDENCE: Array<[string, string]> = [
  ['a model path', 'vllm serve /mnt/models/Qwen3.5-397B-A17B-w8a8 --served-model-name qwen3.5 --port 8000 --tensor-parallel-size 16'],
  ['a Hugging Face cache path', 'export MODEL=/root/.cache/huggingface/hub/models--Qwen--Qwen3-8B/snapshots/9c8e487150aa34dacb1fff7fafe32075b0c32b4c'],
  ['ports of docker run', 'docker run -d -p 8000:8000 -p 9105:9105 --device /dev/davinci0 --device /dev/davinci_manager image:tag'],
  ['the port of ssh', 'ssh -p 2222 root@10.0.0.2 "bash /root/run_node1.sh"'],
  ['ssh -p after sshpass', 'sshpass -f /root/.ssh/pw ssh -p 2222 root@10.0.0.2 uptime'],
  ['mysql -p prompting, then the database', 'mysql -u root -p metrics'],
  ['docker login without a password', 'docker login registry.example'],
  ['device lists', 'export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3,4,5,6,7'],
  ['addresses', 'export HCCL_IF_IP=10.0.0.11 GLOO_SOCKET_IFNAME=enp189s0f0 TP_SOCKET_IFNAME=enp189s0f0'],
  ['hccn.conf', 'address_0=192.168.100.10\nnetmask_0=255.255.255.0\nnetdetect_0=192.168.100.1'],
  ['a data-parallel address', 'vllm serve /m --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13389'],
  ['token counts', 'vllm serve /m --max-num-batched-tokens 8192 --max-model-len 32768 --num-speculative-tokens 1'],
  ['a kv-transfer config', `--kv-transfer-config '{"kv_connector": "MooncakeConnectorV1", "kv_role": "kv_producer", "kv_port": "20001", "engine_id": "0"}'`],
  ['a Content-Type header', 'curl -X POST -H "Content-Type: application/json" http://localhost:8000/v1/completions'],
  ['npu-smi output', 'NPU Name          : 910B3\nHealth            : OK\nChip Name         : Ascend910B3\nBus-Id            : 0000:C1:00.0'],
  ['an IPv6 address and a URL with a port', 'curl http://[fe80::1]:8000/health http://node1:9105/readyz'],
  ['a slug that starts with sk-', 'cp -r /data/sk-learn-notebook-examples-archive /tmp'],
  ['a sha256', 'sha256sum: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
  ['environment that is not secret', 'export HF_ENDPOINT=https://hf-mirror.com HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTORCH_NPU_ALLOC_CONF=expandable_segments:True'],
  ['a timestamp and a status line', 'status: ok at 12:30:45, keyword: none'],
  ["a taint's key in a manifest", '  - key: qprep.io/not-ready\n    operator: Exists\n    effect: NoSchedule'],
  ['a validation message naming a key', 'invalid profile typo.yaml: (top level): Unrecognized key: "hosts"'],
];

describe('the redaction rule, as a table', () => {
  it.each(SECRETS)('%s: hidden as a script has it and as qprep quotes it', (_what, line, secret) => {
    const asScript = redactScript(line);
    expect(asScript).not.toContain(secret);
    expect(asScript).toContain('***');
    expect(redactMessage(line)).not.toContain(secret);
  });

  it.each(EVIDENCE)('%s: kept byte for byte', (_what, line) => {
    expect(redactScript(line)).toBe(line);
    expect(redactMessage(line)).toBe(line);
  });

  it('a hidden line keeps its shape: the flag, the header name, the variable, the quotes', () => {
    expect(redactScript('curl -fsS -u deploy:CURLPW1001 https://mirror.example/simple')).toBe('curl -fsS -u *** https://mirror.example/simple');
    expect(redactScript('mysql -uroot -pMYSQLPW1003 -h 10.0.0.3 metrics')).toBe('mysql -uroot -p*** -h 10.0.0.3 metrics');
    expect(redactScript("curl -H 'Cookie: sid=COOKIE1006; theme=dark' https://api.example/")).toBe("curl -H 'Cookie: ***' https://api.example/");
    expect(redactScript('export AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acc;AccountKey=ACCOUNTKEY1007==;EndpointSuffix=core.windows.net"')).toBe(
      'export AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acc;AccountKey=***;EndpointSuffix=core.windows.net"',
    );
    expect(redactScript(`python3 -c "import os; os.environ['HF_TOKEN'] = 'HFPY1008'; import vllm"`)).toBe(`python3 -c "import os; os.environ['HF_TOKEN'] = '***'; import vllm"`);
    expect(redactScript('sshpass -p SSHPASSPW ssh -p 2222 root@10.0.0.2 uptime')).toBe('sshpass -p *** ssh -p 2222 root@10.0.0.2 uptime');
  });

  it("the password of curl -u is hidden wherever else the run quotes it", () => {
    const redactor = new Redactor();
    redactor.script('curl -u deploy:CURLPW1001 https://mirror.example/');
    expect(redactor.message('mirror login failed for CURLPW1001')).toBe('mirror login failed for ***');
  });

  it('an environment variable whose value is a token, or a credential command, is hidden whatever its name', () => {
    expect(redactEnvValue('GH', GHP)).toBe('***');
    expect(redactEnvValue('DB_PW', 'x1')).toBe('***');
    expect(redactEnvValue('BACKUP_CMD', 'mysqldump -pDUMPPW db')).toBe('mysqldump -p*** db');
  });

  it('one decision: isSecret judges a name, a flag of a command, or a value alone', () => {
    expect(isSecret({ name: 'X_CREDS', value: 'v' })).toBe(true);
    expect(isSecret({ value: 'v', flag: { command: 'docker', before: ['login'], flag: '-p', glued: false } })).toBe(true);
    expect(isSecret({ value: '8000:8000', flag: { command: 'docker', before: ['run'], flag: '-p', glued: false } })).toBe(false);
    expect(isSecret({ value: 'metrics', flag: { command: 'mysql', before: ['-u', 'root'], flag: '-p', glued: false } })).toBe(false);
    expect(isSecret({ value: GLPAT })).toBe(true);
    expect(isSecret({ name: 'HF_TOKEN', value: '' })).toBe(false);
  });

  it('every table row names its source', () => {
    for (const row of [...TOKEN_FORMATS, ...CREDENTIAL_FLAGS]) expect(row.source, JSON.stringify(row)).toMatch(/^https:\/\//);
  });
});
