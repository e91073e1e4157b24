// The floor's calls made by the smallest Node program that keeps qprep's guarantees for each
// call: node:child_process.spawn with argv only, a process group of its own, both outputs read
// through pipes, and a timeout that kills the group; one call after the other, nothing else
// loaded, no checks. What it costs over the bash loop is what spawning from Node costs on this
// machine (fork of a Node process, exec, the event loop noticing the exit), the bound below
// which no Node program making these calls can go.
// Usage: node bench/lib/node-loop.mjs SCRIPT, SCRIPT being the floor's bash script: a line
// `tool arg ... >/dev/null` per call, words separated by single spaces.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TIMEOUT_MS = 30_000;
const calls = readFileSync(process.argv[2], 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => line.replace(/ >\/dev\/null$/, '').split(' '));

function run([file, ...args]) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`${file} ${args.join(' ')} exited ${code}: ${Buffer.concat(output).toString().slice(0, 200)}`));
      else resolve(Buffer.concat(output).length);
    });
  });
}

for (const argv of calls) await run(argv);
