import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readLaunchScript, type LaunchScript } from '../../../src/parsers/launch-script.js';
import { MAX_LAUNCH_SCRIPT_BYTES, MAX_SCRIPT_TOKENS, overTokenCap, parseShellScript } from '../../../src/parsers/shell-script.js';
import { MAX_EXPANSION_DEPTH } from '../../../src/parsers/shell/lexer.js';
import { booleanFlag, integerFlag, jsonFlag, lastFlag, parseServeArgs } from '../../../src/parsers/vllm-args.js';

function guide(name: string): string {
  return readFileSync(new URL(`../../fixtures/launch/${name}`, import.meta.url), 'utf8');
}

const ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/root' };

function read(text: string, env: Record<string, string> = ENV): LaunchScript {
  return readLaunchScript(text, env);
}

function variable(script: LaunchScript, name: string) {
  return script.variables.get(name);
}

function serveArgs(script: LaunchScript) {
  return parseServeArgs(script.serve!.args);
}

describe('the guides\' launch scripts, as published', () => {
  it('run_p.sh: the placeholders, where they flow, and the vllm serve command with its flags and lines', () => {
    const script = read(guide('run_p.sh'));
    expect(script.notes).toEqual([]);
    expect(variable(script, 'nic_name')).toMatchObject({ value: { text: 'xxx', known: true }, exported: false, line: 6 });
    expect(variable(script, 'local_ip')).toMatchObject({ value: { text: 'xxx' }, exported: false, line: 7 });
    // HCCL_IF_IP=$IP_ADDRESS, IP_ADDRESS=$local_ip
    const hcclIfIp = variable(script, 'HCCL_IF_IP')!;
    expect(hcclIfIp).toMatchObject({ exported: true, line: 17, value: { text: 'xxx', known: true } });
    expect(hcclIfIp.value.origins).toEqual([
      { name: 'IP_ADDRESS', line: 15 },
      { name: 'local_ip', line: 7 },
    ]);
    expect(variable(script, 'HCCL_SOCKET_IFNAME')!.value.origins.at(-1)).toEqual({ name: 'nic_name', line: 6 });
    // the proxies are unset, the commented LD_PRELOAD is not there
    expect(variable(script, 'http_proxy')).toBeUndefined();
    expect(variable(script, 'LD_PRELOAD')).toBeUndefined();
    // :$LD_LIBRARY_PATH appends what the script inherits (nothing here)
    expect(variable(script, 'LD_LIBRARY_PATH')!.value).toMatchObject({ text: '/usr/local/Ascend/ascend-toolkit/latest/python/site-packages:', unset: ['LD_LIBRARY_PATH'] });

    const serve = script.serve!;
    expect(serve).toMatchObject({ form: 'vllm serve', line: 32, endLine: 71, conditional: null });
    expect(serve.env.get('ASCEND_RT_VISIBLE_DEVICES')!.value.text).toBe('0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15');
    expect(serve.env.has('nic_name')).toBe(false);
    const args = serveArgs(script);
    expect(args.model).toMatchObject({ text: 'Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp', line: 32 });
    expect(lastFlag(args, 'host')!.value).toMatchObject({ text: 'xxx', line: 33, origins: [{ name: 'IP_ADDRESS', line: 15 }, { name: 'local_ip', line: 7 }] });
    expect(integerFlag(args, 'port')).toMatchObject({ state: 'ok', value: 30060 });
    expect(integerFlag(args, 'data-parallel-size-local')).toMatchObject({ state: 'ok', value: 8 });
    // --max-num_seqs and --speculative_config: vLLM reads the underscores as dashes
    expect(integerFlag(args, 'max-num-seqs')).toMatchObject({ state: 'ok', value: 64, flag: { written: '--max-num_seqs', line: 41 } });
    expect(jsonFlag(args, 'speculative-config')).toMatchObject({ state: 'ok', value: { method: 'qwen3_5_mtp', num_speculative_tokens: 3 } });
    expect(booleanFlag(args, 'enable-prefix-caching')).toBe(false);
    expect(booleanFlag(args, 'enable-expert-parallel')).toBe(true);
    // the multi-line JSON in single quotes is one argument, starting on its own line
    const kv = jsonFlag(args, 'kv-transfer-config');
    expect(kv).toMatchObject({ state: 'ok', value: { kv_role: 'kv_producer', kv_port: '23010', kv_connector_extra_config: { prefill: { dp_size: 8, tp_size: 2 } } } });
    expect(lastFlag(args, 'kv-transfer-config')!.value!.line).toBe(57);
    expect(args.extraPositionals).toEqual([]);
  });

  it('run_d0.sh and run_d1.sh: node0_ip reaches --data-parallel-address through MASTER_IP_ADDRESS; d1 is headless from rank 8', () => {
    const d0 = read(guide('run_d0.sh'));
    const d1 = read(guide('run_d1.sh'));
    for (const script of [d0, d1]) {
      expect(script.notes).toEqual([]);
      expect(lastFlag(serveArgs(script), 'data-parallel-address')!.value!.origins).toEqual([
        { name: 'MASTER_IP_ADDRESS', line: 15 },
        { name: 'node0_ip', line: 10 },
      ]);
    }
    expect(integerFlag(serveArgs(d0), 'data-parallel-start-rank')).toMatchObject({ state: 'ok', value: 0 });
    expect(integerFlag(serveArgs(d1), 'data-parallel-start-rank')).toMatchObject({ state: 'ok', value: 8 });
    expect(booleanFlag(serveArgs(d1), 'headless')).toBe(true);
    // run_d1.sh sets no ASCEND_RT_VISIBLE_DEVICES
    expect(d1.serve!.env.has('ASCEND_RT_VISIBLE_DEVICES')).toBe(false);
  });

  it('the A3 single-node script: LD_PRELOAD prepends to the inherited value, and the trailing backslash is noted', () => {
    const script = read(guide('qwen3.5-397b-w8a8-a3-single-node.sh'), { ...ENV, LD_PRELOAD: '/opt/libx.so' });
    expect(script.serve!.env.get('LD_PRELOAD')!.value).toMatchObject({ text: '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2:/opt/libx.so', known: true, inherited: ['LD_PRELOAD'] });
    expect(script.notes).toEqual([expect.objectContaining({ line: 35, severity: 'warning', construct: 'trailing backslash' })]);
    // echo performance | tee ...: two commands of a pipeline, neither a server
    expect(script.commands.slice(0, 2).map((c) => c.fields[0]!.text)).toEqual(['echo', 'tee']);
    expect(lastFlag(serveArgs(script), 'additional-config')!.value!.text).toBe('{"enable_cpu_binding":true}');
  });

  it('the 310P scripts: the model comes from $MODEL_PATH', () => {
    for (const [file, model] of [
      ['qwen3.5-2b-310p.sh', 'Qwen/Qwen3.5-2B'],
      ['qwen3.5-4b-310p.sh', 'Qwen/Qwen3.5-4B'],
      ['qwen3.5-9b-310p.sh', 'Qwen/Qwen3.5-9B'],
    ] as const) {
      const script = read(guide(file));
      expect(script.notes, file).toEqual([]);
      const args = serveArgs(script);
      expect(args.model).toMatchObject({ text: model, known: true, origins: [{ name: 'MODEL_PATH', line: 5 }] });
      expect(lastFlag(args, 'dtype')!.value!.text).toBe('float16');
      expect(jsonFlag(args, 'compilation-config')).toMatchObject({ state: 'ok', value: { cudagraph_capture_sizes: [2, 4, 8, 16] } });
    }
  });

  it('proxy.sh: the if block is reported, there is no server, and the proxy flags keep their placeholders', () => {
    const script = read(guide('proxy.sh'));
    expect(script.serve).toBeNull();
    expect(script.notes).toEqual([expect.objectContaining({ line: 6, construct: 'if', severity: 'warning' })]);
    expect(variable(script, 'offset')!.value).toMatchObject({ known: false, dynamic: ['set inside the if at line 6'] });
    const proxy = script.commands.find((c) => c.fields[0]?.text === 'python3')!;
    expect(proxy.fields.map((f) => f.text)).toContain('141.xx.xx.1');
    expect(proxy.fields.find((f) => f.text === '--port')!.line).toBe(16);
  });
});

describe('tricky scripts', () => {
  it('marks a command substitution as not evaluated and names it, without guessing', () => {
    const script = read(`local_ip=$(hostname -I | awk '{print $1}')\nexport HCCL_IF_IP=$local_ip\nvllm serve /m\n`);
    expect(script.serve!.env.get('HCCL_IF_IP')!.value).toMatchObject({ known: false, text: "$(hostname -I | awk '{print $1}')" });
    expect(script.notes).toEqual([expect.objectContaining({ line: 1, construct: 'command substitution' })]);
    expect(script.notes[0]!.message).toContain('local_ip (line 1) depends on $(hostname -I');
  });

  it('reads ${VAR}, ${VAR:-default}, ${VAR:+alt}, and leaves ${#VAR} and $((1+1)) unevaluated', () => {
    const script = read(
      [
        'A=one',
        'B=${A}-${UNSET:-fallback}-${A:+alt}-${UNSET:+no}',
        'C="${#A}"',
        'D=$((1+1))',
        'E="$A"\'$A\'"\\$A"',
        "F=$'tab\\there'",
        'export B C D E F',
      ].join('\n'),
    );
    expect(variable(script, 'B')!.value).toMatchObject({ text: 'one-fallback-alt-', known: true });
    expect(variable(script, 'C')!.value).toMatchObject({ known: false, text: '${#A}' });
    expect(variable(script, 'D')!.value).toMatchObject({ known: false, text: '$((1+1))' });
    expect(variable(script, 'E')!.value.text).toBe('one$A$A');
    expect(variable(script, 'F')!.value.text).toBe('tab\there');
    expect(variable(script, 'E')!.exported).toBe(true);
  });

  it('follows export, unset, set -a and prefix assignments into the server environment', () => {
    const script = read(
      [
        'export http_proxy=http://proxy:3128',
        'unset http_proxy',
        'PLAIN=1',
        'LATER=2',
        'export LATER',
        'set -a',
        'AUTO=3',
        'set +a',
        'AFTER=4',
        'ONLY_FOR_IT=5 nohup vllm serve /m --port 9000 > /tmp/log 2>&1 &',
      ].join('\n'),
      { PATH: '/bin', https_proxy: 'http://p:1' },
    );
    const env = script.serve!.env;
    expect(env.has('http_proxy')).toBe(false);
    expect(env.get('https_proxy')!.line).toBeNull();
    expect(env.has('PLAIN')).toBe(false);
    expect(env.has('LATER')).toBe(true);
    expect(env.has('AUTO')).toBe(true);
    expect(env.has('AFTER')).toBe(false);
    expect(env.get('ONLY_FOR_IT')!.value.text).toBe('5');
    const args = serveArgs(script);
    // the redirections are not arguments
    expect(args.flags.map((f) => f.written)).toEqual(['--port']);
    expect(args.extraPositionals).toEqual([]);
  });

  it('splits an unquoted $EXTRA_ARGS into arguments, and keeps a quoted one whole', () => {
    const script = read('EXTRA="--port 9000 -tp 2"\nMODEL=/models/q\nvllm serve $MODEL $EXTRA --served-model-name "a b"\n');
    const args = serveArgs(script);
    expect(integerFlag(args, 'port')).toMatchObject({ state: 'ok', value: 9000 });
    expect(integerFlag(args, 'tensor-parallel-size')).toMatchObject({ state: 'ok', value: 2, flag: { written: '-tp' } });
    expect(lastFlag(args, 'served-model-name')!.value!.text).toBe('a b');
    const quoted = serveArgs(read('EXTRA="--port 9000"\nvllm serve /m "$EXTRA"\n'));
    expect(quoted.extraPositionals.map((f) => f.text)).toEqual([]);
    expect(quoted.flags.map((f) => f.written)).toEqual(['--port 9000']);
  });

  it('reads --speculative_config and --speculative-config alike (the 397B scripts write one, the 310P scripts the other), with = too', () => {
    const json = '\'{"method": "qwen3_5_mtp", "num_speculative_tokens": 3}\'';
    for (const written of [`--speculative_config ${json}`, `--speculative-config ${json}`, `--speculative_config=${json}`, `--speculative-config=${json}`]) {
      const args = serveArgs(read(`vllm serve /m ${written} --max-num_seqs 4\n`));
      expect(jsonFlag(args, 'speculative-config'), written).toMatchObject({ state: 'ok', value: { method: 'qwen3_5_mtp', num_speculative_tokens: 3 } });
      expect(integerFlag(args, 'max-num-seqs'), written).toMatchObject({ value: 4 });
    }
    expect(jsonFlag(serveArgs(read(guide('qwen3.5-2b-310p.sh'))), 'speculative-config')).toMatchObject({ state: 'ok', value: { num_speculative_tokens: 1 } });
    expect(jsonFlag(serveArgs(read(guide('qwen3.5-397b-w8a8-a3-single-node.sh'))), 'speculative-config')).toMatchObject({ state: 'ok', value: { num_speculative_tokens: 3 } });
  });

  it('reads --flag=value, the short spellings and the python -m api_server form', () => {
    const script = read('python3 -m vllm.entrypoints.openai.api_server --model=/w/m -dp 2 -dpl 1 --enable-expert-parallel --port=8100\n');
    expect(script.serve!.form).toBe('api_server');
    const args = serveArgs(script);
    expect(args.model).toMatchObject({ text: '/w/m' });
    expect(args.modelFrom).toBe('flag');
    expect(integerFlag(args, 'data-parallel-size')).toMatchObject({ value: 2 });
    expect(integerFlag(args, 'data-parallel-size-local')).toMatchObject({ value: 1 });
    expect(integerFlag(args, 'port')).toMatchObject({ value: 8100 });
  });

  it('finds the server behind numactl, env and taskset, and keeps env assignments', () => {
    const script = read('numactl --cpunodebind=0 -m 0 env FOO=bar taskset -c 0-15 /usr/local/python3.11/bin/vllm serve /m\n');
    expect(script.serve!.executable.text).toBe('/usr/local/python3.11/bin/vllm');
    expect(script.serve!.env.get('FOO')!.value.text).toBe('bar');
  });

  it('reports loops, functions, case blocks, source and eval, and what they set stays unknown', () => {
    const script = read(
      [
        'source /usr/local/Ascend/ascend-toolkit/set_env.sh',
        'for i in 1 2; do',
        '  export N=$i',
        'done',
        'start() {',
        '  export IN_FUNCTION=1',
        '}',
        'case "$ROLE" in',
        '  prefill) export KV_ROLE=kv_producer ;;',
        '  *) export KV_ROLE=kv_consumer ;;',
        'esac',
        'eval "$CMD"',
        'vllm serve /m',
      ].join('\n'),
    );
    expect(script.notes.map((n) => [n.line, n.construct])).toEqual([
      [1, 'source'],
      [2, 'for'],
      [5, 'function'],
      [8, 'case'],
      [12, 'eval'],
    ]);
    expect(variable(script, 'N')!.value.known).toBe(false);
    expect(variable(script, 'IN_FUNCTION')!.value.dynamic).toContain('set inside the function start at line 5');
    expect(variable(script, 'KV_ROLE')!.value.known).toBe(false);
    expect(script.serve!.conditional).toBeNull();
  });

  it('what follows && or || is conditional: [ -z "$X" ] && X=default is not taken for granted', () => {
    const script = read('X=set\n[ -z "$X" ] && X=default\nexport X\ntrue || export Y=1\nexport Z=1\nvllm serve /m\n');
    expect(variable(script, 'X')!.value).toMatchObject({ known: false, dynamic: ['set after the && at line 2'] });
    expect(variable(script, 'Y')!.value.known).toBe(false);
    expect(variable(script, 'Z')!.value).toMatchObject({ known: true, text: '1' });
    expect(script.notes.map((n) => [n.line, n.construct])).toEqual([
      [2, '&&'],
      [4, '||'],
    ]);
  });

  it('a server after && runs when the command before it succeeds: no doubt raised', () => {
    const script = read('cd /models && vllm serve ./q --port 1\n');
    expect(script.serve!.conditional).toEqual({ construct: '&&', line: 1 });
    expect(script.notes).toEqual([]);
  });

  it('skips here-document bodies: their lines are not commands', () => {
    const script = read(['cat > /tmp/ranktable.json <<EOF', 'vllm serve /not/this', 'export NOPE=1', 'EOF', 'vllm serve /this'].join('\n'));
    expect(script.serve!.args[0]!.text).toBe('/this');
    expect(variable(script, 'NOPE')).toBeUndefined();
  });

  it('ignores comments, including a commented-out flag at the end of a command', () => {
    const script = read('vllm serve /m --port 1 # --port 2\n# vllm serve /other\n');
    expect(integerFlag(serveArgs(script), 'port')).toMatchObject({ value: 1 });
    expect(script.otherServeLines).toEqual([]);
  });

  it('notes a second server and checks the first', () => {
    const script = read('vllm serve /a\nvllm serve /b\n');
    expect(script.serve!.args[0]!.text).toBe('/a');
    expect(script.otherServeLines).toEqual([2]);
    expect(script.notes).toEqual([expect.objectContaining({ severity: 'info', construct: 'several servers' })]);
  });

  it('a server inside an if block is checked, and says so', () => {
    const script = read('if [ "$ROLE" = p ]; then\n  vllm serve /p --port 1\nfi\n');
    expect(script.serve!.conditional).toEqual({ construct: 'if', line: 1 });
    expect(script.notes.map((n) => n.construct)).toEqual(['if', 'if']);
  });

  it('calls CRLF line ends what they are, and still reads the script', () => {
    const script = read('export A=1\r\nvllm serve /m \\\r\n  --port 1\r\n');
    expect(script.notes[0]).toMatchObject({ line: 1, severity: 'error', construct: 'crlf' });
    expect(integerFlag(serveArgs(script), 'port')).toMatchObject({ value: 1 });
  });

  it('reports an unterminated quote as an error with its line', () => {
    const script = read("export A=1\nvllm serve /m --kv-transfer-config '{\"a\": 1}\n--port 1\n");
    expect(script.notes).toEqual([expect.objectContaining({ line: 2, severity: 'error', construct: 'unterminated quote' })]);
  });

  it('reports a block that is never closed', () => {
    expect(read('if true; then\nexport A=1\n').notes.map((n) => n.construct)).toContain('syntax');
  });

  it('expands a tilde with the inherited HOME', () => {
    const script = read('M=~/models/q\nvllm serve ~/models/q\n', { HOME: '/home/op' });
    expect(variable(script, 'M')!.value.text).toBe('/home/op/models/q');
    expect(script.serve!.args[0]!.text).toBe('/home/op/models/q');
  });

  it('reports a flag that needs a value and has none, and a stray positional', () => {
    const args = parseServeArgs(read('vllm serve /m port 8000 --port\n').serve!.args);
    expect(args.extraPositionals.map((f) => f.text)).toEqual(['port', '8000']);
    expect(args.missingValues.map((f) => f.written)).toEqual(['--port']);
  });

  it('reports JSON that does not parse, naming the flag and line', () => {
    const args = parseServeArgs(read(`vllm serve /m \\\n  --compilation-config '{"cudagraph_mode": FULL}'\n`).serve!.args);
    const parsed = jsonFlag(args, 'compilation-config');
    expect(parsed.state).toBe('invalid');
    expect(parsed.state === 'invalid' && parsed.reason).toMatch(/^--compilation-config \(line 2\) is not valid JSON/);
  });

  it('reads an empty script, a script of comments, and NUL bytes', () => {
    expect(read('').serve).toBeNull();
    expect(read('#!/bin/bash\n# nothing\n').commands).toEqual([]);
    expect(parseShellScript('a\0b').notes[0]).toMatchObject({ severity: 'error', construct: 'binary' });
  });
});

describe('never throws', () => {
  const FRAGMENTS = [
    'vllm serve ',
    '/m ',
    '--port ',
    '8000 ',
    '\\\n',
    '\n',
    "'",
    '"',
    '$(',
    ')',
    '${',
    '}',
    '`',
    'export ',
    'A=',
    '$A',
    '${A:-x}',
    'if ',
    'then ',
    'fi',
    'for i in 1; do ',
    'done',
    'case x in ',
    'a) ',
    ';;',
    'esac',
    '<<EOF\n',
    'EOF\n',
    '# c\n',
    '&& ',
    '| ',
    '; ',
    '2>&1 ',
    '{ ',
    'f() ',
    "$'\\x41'",
    '~/',
    '(',
    '=(',
    '<(',
    '\r\n',
  ];

  it('on any string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 600 }), fc.string({ unit: 'binary', maxLength: 400 })), (text) => {
        const script = read(text);
        expect(Array.isArray(script.notes)).toBe(true);
        if (script.serve) parseServeArgs(script.serve.args);
      }),
      { numRuns: 400 },
    );
  });

  it('on shell-shaped fragments in any order', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }), (parts) => {
        const script = read(parts.join(''));
        for (const command of script.commands) for (const field of command.fields) expect(typeof field.text).toBe('string');
        if (script.serve) {
          const args = parseServeArgs(script.serve.args);
          for (const name of ['port', 'tensor-parallel-size', 'kv-transfer-config']) {
            integerFlag(args, name);
            jsonFlag(args, name);
          }
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('on a script just under the 1 MiB cap and the token cap: long comments, many assignments, one huge argument', () => {
    // 6 tokens a line (export, V0=, "value 0 ", $HOME, " ppp...", the line end): 15,000 in all
    const lines = Array.from({ length: 2_500 }, (_, i) => `export V${i}="value ${i} $HOME ${'p'.repeat(100)}" # ${i}`);
    const comments = `# ${'c'.repeat(998)}\n`.repeat(300);
    const big = `${comments}${lines.join('\n')}\nvllm serve /m --port 1 \\\n${"  --x '".padEnd(300_000, 'y')}'\n`;
    expect(big.length).toBeGreaterThan(900_000);
    expect(big.length).toBeLessThan(MAX_LAUNCH_SCRIPT_BYTES);
    const script = read(big);
    expect(script.serve).not.toBeNull();
    expect(script.notes).toEqual([]);
    expect(variable(script, 'V2499')!.value.text).toBe(`value 2499 /root ${'p'.repeat(100)}`);
  });

  it('over the cap (10 MB, or 1 MiB of multi-byte text): not read, one error note naming the size', () => {
    const big = `export A=1\n${'#'.repeat(10_000_000)}\nvllm serve /m\n`;
    const script = read(big);
    expect(script.serve).toBeNull();
    expect(script.notes).toEqual([{ line: 1, severity: 'error', construct: 'size', message: `the script is ${big.length} bytes, over the 1048576 bytes (1 MiB) qprep reads of a launch script: it was not read` }]);
    // 400,000 characters of three bytes each: over the cap in bytes though not in characters
    expect(read(`# ${'昇'.repeat(400_000)}\n`).notes[0]!.message).toContain('the script is 1200003 bytes');
    expect(read(`# ${'昇'.repeat(300_000)}\n`).notes).toEqual([]);
  });

  it('over the token cap within the byte cap (one-letter words, one word of expansions, semicolons): not read, one error note', () => {
    const message = `the script has more than ${MAX_SCRIPT_TOKENS} words and operators (each quoted piece or expansion of a word, and each ;, &&, |, redirection or line end, counts as one), the most qprep reads of a launch script: it was not read`;
    for (const text of [`vllm serve /m${' a'.repeat(MAX_SCRIPT_TOKENS)}\n`, `A=1\nvllm serve /m "${'$A'.repeat(MAX_SCRIPT_TOKENS)}"\n`, `true${' ;'.repeat(MAX_SCRIPT_TOKENS)}\n`]) {
      expect(text.length).toBeLessThan(MAX_LAUNCH_SCRIPT_BYTES);
      const script = read(text);
      expect(script.serve).toBeNull();
      expect(script.notes).toEqual([{ line: 1, severity: 'error', construct: 'size', message }]);
      expect(overTokenCap(text)).toBe(true);
    }
    // at the cap exactly: read (the command's words, and the line end)
    const atCap = `vllm serve${' a'.repeat(MAX_SCRIPT_TOKENS - 3)}\n`;
    expect(overTokenCap(atCap)).toBe(false);
    expect(read(atCap).serve!.args).toHaveLength(MAX_SCRIPT_TOKENS - 3);
  });

  it('blank and comment lines cost no token, and read as before', () => {
    // 100,000 lines, over the token cap were each line end a token
    const script = read(`A=1\n${'\n# a comment\n'.repeat(50_000)}vllm serve /m --port $A\n`);
    expect(script.notes).toEqual([]);
    expect(script.serve).toMatchObject({ line: 100_002 });
    expect(serveArgs(script).flags[0]).toMatchObject({ name: 'port', line: 100_002, value: { text: '1' } });
  });

  it('${A:-${B:-...}} nested deeper than it reads: the deepest operand is not evaluated, said once with its line', () => {
    const nested = (depth: number) => `${'${U:-'.repeat(depth)}x${'}'.repeat(depth)}`;
    expect(read(`vllm serve /m --x ${nested(MAX_EXPANSION_DEPTH)}\n`).serve!.args[2]).toMatchObject({ text: 'x', known: true });
    const deep = read(`A=1\nvllm serve /m --x ${nested(MAX_EXPANSION_DEPTH + 1)}\n`);
    const value = deep.serve!.args[2]!;
    expect(value.known).toBe(false);
    expect(deep.notes.filter((n) => n.message.includes('nested'))).toEqual([
      { line: 2, severity: 'warning', construct: 'expansion', message: `\${U:-...} on line 2 is nested more than ${MAX_EXPANSION_DEPTH} deep: it is not evaluated` },
    ]);
    // and the argument it stands in says so, as any expansion left to a run
    expect(deep.notes.some((n) => n.message.startsWith('the argument ${U:-') && n.message.endsWith('depends on ${U:-x}, which only a run can tell: it is not checked'))).toBe(true);
  });
});
